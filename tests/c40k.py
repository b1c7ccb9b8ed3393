"""Stat lines the 40k 3rd tests share (YAML flow-mapping text, without the braces)."""

#: A Space Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+.
MARINE = "weapon_skill: 4, strength: 4, toughness: 4, wounds: 1, initiative: 4, attacks: 1, leadership: 8, save: 3"
#: An Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+.
BOY = "weapon_skill: 4, strength: 3, toughness: 4, wounds: 1, initiative: 2, attacks: 2, leadership: 7, save: 6"
#: A 25 mm base's diameter in inches.
D25 = 25 / 25.4
