"""Shared utilities of every product: neutralised text, atomic writes, the languages and their
interface strings (locales/), CJK text, dates, version order, markup, problems and their reports.
Imports no other releasekb package."""
