"""The knowledge base: release files loaded and validated, the model and the catalog, the URL
scheme and the list of pages, the JSON API documents, the API index and the published schemas,
`releasekb new`, `init` and `query`. Imports only releasekb.common."""
