"""The site: pages rendered and generated per language, search, the published files, the
parallel build and the MkDocs plugin with its theme. Imports releasekb.common and releasekb.kb."""
