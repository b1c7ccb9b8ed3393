"""The limits of the scenario file format: every count and size a file (or a command line) may
ask for (docs/scenario-format.md, "Limits"). A module of its own, without pydantic, so that the
command line can name them without loading the schema (:mod:`scenarios.schema` uses them).
"""

# The reader's own limits (bytes, nesting, values, integer digits) live in yamlio.py.

#: Models in the whole file, and terrain pieces.
MAX_MODELS = 1_000
MAX_PIECES = 200
#: Vertices of one terrain polygon, and of all polygons together.
MAX_POLYGON_VERTICES = 500
MAX_VERTICES = 2_000
#: Entries of ``actions:`` and of ``expect:``; recorded rolls under ``dice:``.
MAX_ACTIONS = 1_000
MAX_EXPECT = 1_000
MAX_ROLLS = 20_000
#: Any other list or mapping a user writes (tags, targets, casualties, path points ...).
MAX_LIST = 200
#: Board sides, and every coordinate or length in inches: at most this (in absolute value).
MAX_INCHES = 1_000.0
#: Base sizes in mm: from MIN_BASE_MM to MAX_BASE_MM.
MIN_BASE_MM, MAX_BASE_MM = 1.0, 500.0
#: The longest id.
MAX_ID = 100
#: Largest seed (dice: {seed: N}): 0 .. 2**64 - 1.
MAX_SEED = 2**64 - 1
#: A charge's distance modifier (Concussive Shells: -2), in the file and on the command line.
MAX_CHARGE_MODIFIER = 20
#: One model's attacks split between enemy units (40k 3rd): at most this many per unit, and
#: this many units (the fight action's ``targets: {model: {unit: n}}``, the question's ``assign``).
MAX_SPLIT_ATTACKS = 100
MAX_SPLIT_UNITS = 20
#: Largest size of any other number a user writes.
MAX_NUMBER = 1e15
