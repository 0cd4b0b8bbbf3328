"""Exact solvers: gin deadwood and layoffs (``deadwood``)."""
