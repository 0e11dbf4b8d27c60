"""`releasekb serve`: the site served with live reload, rebuilt when a file changes. Imports
releasekb.common, releasekb.kb and releasekb.site."""
