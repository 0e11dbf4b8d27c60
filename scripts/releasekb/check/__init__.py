"""`releasekb check`: the code scanner, the API index it reads, the findings and their outputs,
fixes, baseline, configuration and cache. Imports releasekb.common and releasekb.kb, never the
site."""
