"""The store: tournaments in a database (SQLite or PostgreSQL), behind use cases."""
