"""One module per check rule, named by its id; each states its rule in its docstring and exports ``RULE``."""
