"""Scenario files (pydantic models, located errors), replay, the ``tapeline`` command and the
bundled example scenarios (``scenarios/examples/``)."""

if __name__ != "tapeline.scenarios":  # this folder imported as a top-level package ``scenarios``
    raise ImportError(
        "scenarios/ is tapeline's scenarios layer: import it as tapeline.scenarios (after `pip install -e .`); "
        "importing it as `scenarios` would make a second copy of every class")
