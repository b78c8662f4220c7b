"""Build the solver's compiled core: its modules, compiled unchanged with mypyc.

    .venv/bin/python tools/build_solver.py [--clean]

``make install`` runs this. Copies of ``src/meldtour/solver/{tables,dp,build,exact}.py``
are compiled as the package ``meldtour.solver._native`` (one shared library); the
``.py`` files stay the source of truth and the pure fallback
(:mod:`meldtour.solver.native` picks one at import; ``MELDTOUR_PURE_SOLVER=1`` forces
the fallback). The build works in a temporary directory and copies only the
extension modules into ``src/meldtour/solver`` (git ignores them); the package's
``__init__`` records the digest of the sources it was compiled from, so that a stale
build is never used. ``--clean`` removes the built files. Exit status 1 when the
build fails: the pure solver then runs. :func:`build_copy` compiles another copy of the
sources (an older commit's) under a name of its own, for ``bench/solver.py --previous``.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "src" / "meldtour" / "solver"
#: Keep in step with ``meldtour.solver.native.SOURCES``.
SOURCES = ("tables.py", "dp.py", "build.py", "exact.py")
NATIVE = "_native"

SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

paths = {paths!r}
setup(name="meldtour-solver-native", ext_modules=mypycify(
    paths, opt_level="3", group_name={group!r}))
"""


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for name in SOURCES:
        h.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    return h.hexdigest()


def clean() -> None:
    shutil.rmtree(SOLVER / NATIVE, ignore_errors=True)
    for lib in SOLVER.glob(f"{NATIVE}__mypyc*.so"):
        lib.unlink()


def _compile(folder: Path, package: str, work: Path) -> tuple[Path, list[Path], list[Path]]:
    """Compile copies of ``folder``'s sources as ``package`` under ``work`` (which holds
    a copy of the ``meldtour`` tree); the package folder, its modules and the shared
    library."""
    native = work.joinpath(*package.split("."))
    native.mkdir(parents=True)
    (native / "__init__.py").write_text(
        '"""The compiled copy of the solver (tools/build_solver.py)."""\n\n'
        f'DIGEST = "{digest(folder)}"\n',
        encoding="utf-8",
    )
    for name in SOURCES:
        shutil.copyfile(folder / name, native / name)
    rel = native.relative_to(work)
    paths = [str(rel / n) for n in ("__init__.py", *SOURCES)]
    (work / "setup.py").write_text(SETUP.format(paths=paths, group=package), encoding="utf-8")
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=work,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    built = sorted(native.glob("*.so"))
    libs = sorted(native.parent.glob(f"{native.name}__mypyc*.so"))
    if len(built) != 1 + len(SOURCES) or len(libs) != 1:
        raise RuntimeError(f"unexpected build output: {built + libs}")
    return native, built, libs


def build() -> None:
    with tempfile.TemporaryDirectory(prefix="meldtour-native-") as tmp:
        work = Path(tmp)
        shutil.copytree(
            ROOT / "src" / "meldtour",
            work / "meldtour",
            ignore=shutil.ignore_patterns("__pycache__", "*.so", NATIVE),
        )
        _, built, libs = _compile(SOLVER, f"meldtour.solver.{NATIVE}", work)
        clean()
        (SOLVER / NATIVE).mkdir()
        for so in built:
            shutil.copyfile(so, SOLVER / NATIVE / so.name)
        shutil.copyfile(libs[0], SOLVER / libs[0].name)


def build_copy(folder: Path, package: str, dest: Path) -> None:
    """Compile another copy of the solver's sources (``folder``, e.g. an older commit's)
    as the top-level package ``package`` in ``dest``, for a benchmark to import beside
    this tree's: ``sys.path.insert(0, str(dest)); import_module(package + ".exact")``."""
    with tempfile.TemporaryDirectory(prefix="meldtour-native-") as tmp:
        work = Path(tmp)
        _, built, libs = _compile(folder, package, work)
        shutil.rmtree(dest / package, ignore_errors=True)
        (dest / package).mkdir(parents=True)
        for so in built:
            shutil.copyfile(so, dest / package / so.name)
        shutil.copyfile(libs[0], dest / libs[0].name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the built files")
    args = parser.parse_args()
    if args.clean:
        clean()
        return 0
    t0 = time.perf_counter()
    try:
        build()
    except (OSError, RuntimeError, subprocess.CalledProcessError) as e:
        clean()
        print(
            f"the solver's compiled core did not build ({e}); the pure solver runs", file=sys.stderr
        )
        return 1
    print(f"built meldtour.solver._native in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
