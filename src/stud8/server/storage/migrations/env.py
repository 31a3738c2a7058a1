"""Alembic's environment: migrate the connection handed over in
``config.attributes["connection"]`` (see :func:`stud8.server.storage.upgrade`), or
one made from the ``sqlalchemy.url`` option."""

from __future__ import annotations

from alembic import context

from stud8.server.storage.models import Base


def run_migrations() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    from stud8.server.storage.db import DEFAULT_URL, create_engine_for

    engine = create_engine_for(config.get_main_option("sqlalchemy.url") or DEFAULT_URL)
    try:
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=Base.metadata)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


# Imported outside Alembic (by pytest's doctest collection), there is no context.
if hasattr(context, "config"):
    run_migrations()
