"""Refusals as values: a stable code and its arguments, before any sentence.

Every refusal of the core, the tournament engine and the store is raised as a
:class:`Refused` (or a subclass such as ``IllegalMove``) carrying a :class:`Refusal`:
``code`` (a dotted name such as ``"meld.too_short"``) and ``params`` (its arguments:
strings, whole numbers, lists of them, or nested refusals for a reason inside a
reason). The English sentence is made from them in one place, the template that the
code registered (:func:`register`); adapters translate by code through their
catalogs, whose message ids are these templates, and never read an error's text.

>>> register({"demo.too_short": "%(meld)s has %(n)d tiles: a meld needs at least 3"})
>>> exc = Refused("demo.too_short", meld="[r1,r2]", n=2)
>>> str(exc), exc.code, exc.params["n"]
('[r1,r2] has 2 tiles: a meld needs at least 3', 'demo.too_short', 2)
>>> english(Refusal("demo.too_short", {"meld": "[k5]", "n": 1}))
'[k5] has 1 tiles: a meld needs at least 3'
>>> exc.refusal.to_json()
{'code': 'demo.too_short', 'params': {'meld': '[r1,r2]', 'n': 2}}
>>> del TEMPLATES["demo.too_short"]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: Every code's English template (``%(name)s`` placeholders), registered by the module
#: that raises it.
TEMPLATES: dict[str, str] = {}


def register(templates: Mapping[str, str]) -> None:
    """Declare codes and their English templates (a code is declared once)."""
    for code, template in templates.items():
        old = TEMPLATES.get(code)
        if old is not None and old != template:
            raise ValueError(f"refusal code {code!r} is declared twice, differently")
        TEMPLATES[code] = template


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refusal as a value: its code and its arguments."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": {k: _json(v) for k, v in self.params.items()}}


def _json(value: Any) -> Any:
    if isinstance(value, Refusal):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def render(refusal: Refusal, gettext: Callable[[str], str]) -> str:
    """The refusal's sentence through ``gettext`` (the identity gives the English): the
    template is translated, then nested refusals in the arguments, then filled in."""
    template = TEMPLATES.get(refusal.code)
    if template is None:
        raise KeyError(f"refusal code {refusal.code!r} has no template")
    args = {
        k: render(v, gettext) if isinstance(v, Refusal) else v for k, v in refusal.params.items()
    }
    return gettext(template) % args


def english(refusal: Refusal) -> str:
    """The refusal in English: the one place sentences are made from codes."""
    return render(refusal, lambda s: s)


class Refused(ValueError):
    """A refusal raised: ``code`` and ``params`` (the :class:`Refusal` is
    ``.refusal``); ``str()`` is the English sentence."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.refusal = Refusal(code, params)
        super().__init__(english(self.refusal))

    @property
    def code(self) -> str:
        return self.refusal.code

    @property
    def params(self) -> Mapping[str, Any]:
        return self.refusal.params


__all__ = ["TEMPLATES", "Refusal", "Refused", "english", "register", "render"]
