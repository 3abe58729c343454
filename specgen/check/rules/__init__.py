"""One module per check rule; each states its rule in its docstring and exports ``RULE``."""
