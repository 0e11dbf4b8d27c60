"""Shared utilities of every product: neutralised text, atomic writes, the languages and their
interface strings (locales/, a team's merged over them), plurals, dates and numbers by CLDR
(formatting.py), CJK text, dates, version order, markup, problems and their reports.
Imports no other releasekb package."""
