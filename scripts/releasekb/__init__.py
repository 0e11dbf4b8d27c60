"""ReleaseKB: a bilingual release-notes knowledge base generated from curated YAML.

One sub-package per product: common (shared utilities), kb (the knowledge base: loader ->
validate (model + rules) -> catalog), site, serve, check and bench; commands (one module per
command) under cli.py, the command line.
"""
