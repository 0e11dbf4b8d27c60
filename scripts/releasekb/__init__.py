"""ReleaseKB: a bilingual release-notes knowledge base generated from curated YAML.

Pipeline, one module per stage: loader -> validate (model + rules) -> catalog -> render -> site.
"""
