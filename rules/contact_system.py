"""What Horus Heresy 3rd and Warhammer 40,000 3rd share as rule systems: true line of sight by
heights (:mod:`.truelos`), charges into base contact (:mod:`.contact_charge`), each model's
move with its base as its clearance, the 2" chain of coherency, weapons named by the system's
armoury or the file, and the fight's odds as a whole round (:class:`ContactSystem`). Each
system's own :class:`~tapeline.rules.systems.RuleSystem` subclasses it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Optional, Protocol, Union

from tapeline.board.coherency import Coherency, chain_coherency
from tapeline.board.regions import Region
from tapeline.board.sight import Sight
from tapeline.board.table import Figure

from . import truelos
from .heresy import combat
from .charge_answer import contact_outcome, contact_reach
from .charge_geometry import MoveRules, end_region
from .contact_charge import CHAIN_LINK, ContactCharge, contact_groups, contact_rules
from .errors import ChoiceError
from .state import GameState
from .systems import FightChoices, RuleSystem

#: The Surge Die's rule, refused in the systems that have none.
SURGE = "§8.8.1 Surge"


def inches(x: float) -> str:
    """A length as the answers print it: up to six decimals, no trailing zeros."""
    return f"{x:.6f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else f"{x:g}"


class ChargeRules(Protocol):
    """What a contact system's ``charge`` module provides: the charge question's reach, and the
    charge resolved with known dice."""

    def reach(self, state: GameState, unit_id: str, targets: Sequence[str], leader: Optional[str] = None,
              modifier: int = 0) -> ContactCharge: ...

    def resolve(self, state: GameState, unit_id: str, targets: Sequence[str], rolls: Sequence[int],
                leader: Optional[str] = None, modifier: int = 0,
                target_models: Optional[Mapping[str, str]] = None) -> tuple[GameState, dict[str, Any]]: ...


class ContactSystem(RuleSystem):
    """A system of true line of sight and charges into base contact (Horus Heresy, 40k 3rd)."""

    #: the system's charge module (rules/<system>/charge.py)
    charge_rules: ClassVar[ChargeRules]
    fight_casualties = True

    def known_weapon(self, name: str, defined: set[str]) -> bool:
        """Is ``name`` a weapon or piece of kit of the system's armoury, or one the unit's
        stats define (``defined``)?"""
        raise NotImplementedError

    def unit_problems(self, stats: Mapping[str, Any]) -> list[tuple[tuple[Union[str, int], ...], str]]:
        """Every wargear name of the unit (its own and each model's) is known."""
        mine = set(stats.get("melee_weapons") or {}) | set(stats.get("ranged_weapons") or {})
        lists: list[tuple[tuple[Union[str, int], ...], Sequence[str]]] = [(("stats", "wargear"), stats.get("wargear") or [])]
        lists += [(("stats", "models", m, "wargear"), ms.get("wargear") or []) for m, ms in (stats.get("models") or {}).items()]
        out: list[tuple[tuple[Union[str, int], ...], str]] = []
        for path, names in lists:
            for i, n in enumerate(names):
                if not self.known_weapon(n, mine):
                    out.append((path + (i,), f"unknown wargear {n!r} (define it under stats.melee_weapons)"))
        return out

    def visible(self, state: GameState, a: str, b: str) -> Sight:
        return truelos.visible(state, a, b)

    def level(self, state: GameState, fig: Figure) -> dict[str, Any]:
        """The height of the surface the model stands on, and its eye height."""
        h = state.table.stack_height(fig.on)
        return {"level": f'{inches(h)}" up' if h else "Ground Level", "eye_height": round(truelos.eye(state, fig.id), 6)}

    def move_rules(self, state: GameState, fig: Figure, may_engage: bool = False) -> MoveRules:
        r = contact_rules(state, fig.unit, fig, ())
        return MoveRules(r.rho, r.edge, r.path_pieces, r.path_figures, r.end_pieces, r.end_figures, ())

    def coherency(self, state: GameState, unit: str, leader: Optional[str] = None) -> Coherency:
        return chain_coherency(state.figures_of(unit), CHAIN_LINK)

    def charge_reach(self, state: GameState, unit: str, targets: Sequence[str], leader: Optional[str] = None,
                     modifier: int = 0) -> tuple[ContactCharge, dict[str, Any]]:
        rc = self.charge_rules.reach(state, unit, list(targets), leader, modifier)
        return rc, contact_reach(self.name, unit, rc)

    def charge_outcome(self, state: GameState, unit: str, targets: Sequence[str], rolls: Sequence[int],
                       leader: Optional[str] = None, modifier: int = 0,
                       target_models: Optional[Mapping[str, str]] = None) -> tuple[GameState, dict[str, Any]]:
        new, res = self.charge_rules.resolve(state, unit, list(targets), list(rolls), leader, modifier, target_models)
        return new, contact_outcome(res)

    def charge_goal_regions(self, state: GameState, unit: str, targets: Sequence[str], lead: Figure) -> list[Region]:
        return [end_region(state, lead, contact_rules(state, unit, lead, targets), contact_groups(state, lead, targets))]

    def locked_with(self, state: GameState, unit: str) -> list[str]:
        """Units locked in combat: a model in base contact with an enemy model (Horus Heresy §A.1;
        40k 3rd reads "locked in close combat" the same way)."""
        return combat.locked_with(state, unit)

    def fight_odds(self, state: GameState, unit: str, choices: FightChoices = FightChoices()) -> dict[str, Any]:
        if choices.surge_to:
            raise ChoiceError("surge_to", SURGE, "the Surge Die is a StarCraft rule")
        return self.round_odds(state, unit, choices)

    def round_odds(self, state: GameState, unit: str, choices: FightChoices) -> dict[str, Any]:
        """One whole round of the combat ``unit`` is in, Initiative step by step, exactly."""
        raise NotImplementedError
