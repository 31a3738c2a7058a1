"""Browser tests of the client (a package, so that its conftest has its own module name)."""
