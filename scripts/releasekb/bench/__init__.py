"""`releasekb bench`: the benchmark, its synthetic corpus and the browser it drives. Only the
command line and the tests import it."""
