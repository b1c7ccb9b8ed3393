"""Scenario files (pydantic models, located errors), replay, the ``tapeline`` command and the
bundled example scenarios (``scenarios/examples/``)."""
