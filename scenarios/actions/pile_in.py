"""``pile_in``: Horus Heresy 3rd pile-in moves (§A.7): models not in base contact move up to
their Initiative into base contact with an eligible enemy, each along its own checked path.

```yaml
actions:
  - {action: pile_in, unit: loyal}                  # every model not in base contact
  - {action: pile_in, unit: loyal, models: [a3]}    # only these
```
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from tapeline.rules.errors import IllegalAction

from ..schema import Id, Strict
from ..vocab import action


@action
class PileIn(Strict):
    action: Literal["pile_in"]
    unit: Id
    models: Optional[Annotated[list[Id], Field(max_length=2000)]] = None

    def refs(self):
        return [("unit", "unit", self.unit)] + [(f"models.{i}", "model", m) for i, m in enumerate(self.models or ())]

    def apply(self, state, ctx):
        if state.system != "heresy":
            raise IllegalAction("pile_in", f"the pile_in action is not available yet for system {state.system}")
        from tapeline.rules.heresy.moves import pile_in

        for m in self.models or ():
            if m not in state.unit(self.unit).models:
                raise IllegalAction("HH3 §A.7 pile-in", f"{m} is not a model of {self.unit} on the table")
        new, moves = pile_in(state, self.unit, self.models)
        return new, [{"type": "pile_in", "unit": self.unit, "moves": [m.as_json() for m in moves]}]
