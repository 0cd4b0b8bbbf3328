"""Variant engines: gin (rules/gin.md)."""
