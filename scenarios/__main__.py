from .guards import run

run()
