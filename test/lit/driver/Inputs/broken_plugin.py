"""A plugin with a syntax error, for the driver tests."""


def broken(:
    pass
