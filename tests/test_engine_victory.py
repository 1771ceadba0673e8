"""Victory at the game's end (engine/game/victory.py): each kind of condition the bundled scenarios
use, with end positions built by hand (units put on the map, control set as the last side to
occupy each hex, R82), then `result` as the game's end calls it."""

from __future__ import annotations

from engine.game import new_game
from engine.game.state import GameState
from engine.game.units import Unit
from engine.game.victory import CONTESTED, hex_holder, initial_control, result
from engine.model.scenario import load_scenario
from tests.test_engine_fire import SUPPORT_FIRE, game_at, put
from tests.test_engine_rules import REPO


def empty(name: str) -> GameState:
    """A game of the scenario with no unit on the map and only its `at_start` control (R82)."""
    game = new_game(load_scenario(REPO / "scenarios" / f"{name}.yaml"), 1)
    for unit in game.units.values():
        game.relocate(unit, "waiting", None)
    game.control = {}
    initial_control(game)
    return game


def units(game: GameState, side: str, squad: str | None = None, kind: str | None = None) -> list[Unit]:
    return [
        u for u in game.side_units(side) if (squad is None or u.squad == squad) and (kind is None or u.kind == kind)
    ]


def occupy(game: GameState, unit: Unit, label: str) -> None:
    h = game.board.hex(label)
    game.relocate(unit, "on_map", h)
    game.control[h] = unit.side  # R82: the last side to occupy it


def test_scenario_1_occupies_each_objective_hex() -> None:
    """Scenario 1: 'The player who has at least one unit in both hex 4307 and hex 4308 at the end of
    the game, wins.' Otherwise a draw (R11)."""
    game = empty("s1-demyansk-pocket")
    german, russian = units(game, "german"), units(game, "russian")
    assert result(game)["winner"] == "draw" and result(game)["condition"] is None
    occupy(game, german[0], "4307")
    assert result(game)["winner"] == "draw"  # one of the two
    occupy(game, german[1], "4308")
    assert result(game) == {"winner": "german", "by": result(game)["by"], "condition": 0}
    german[1].hidden = True  # a hidden unit is there all the same (24.2)
    assert result(game)["winner"] == "german"
    occupy(game, russian[0], "4308")
    occupy(game, russian[1], "4307")
    assert result(game)["winner"] == "german"  # both hold both: the first condition listed decides
    game.relocate(german[0], "eliminated", None)
    assert result(game)["winner"] == "russian" and result(game)["condition"] == 1


def test_scenario_2_no_units_in_buildings_or_sole_occupant_of_a_multi_hex_building() -> None:
    """Scenario 2: the German wins with no Russian unit in a building; the Russian as the sole
    occupant of at least one multi-hex building; otherwise a draw."""
    game = empty("s2-khristishche")
    german, russian = units(game, "german"), units(game, "russian")
    occupy(game, german[0], "1711")
    occupy(game, russian[0], "1010")  # outside every building
    assert result(game)["winner"] == "german" and result(game)["condition"] == 0
    occupy(game, russian[1], "1710")  # building 2, with a German in 1711: not sole
    assert result(game)["winner"] == "draw"
    game.relocate(german[0], "waiting", None)
    assert result(game)["winner"] == "russian" and result(game)["condition"] == 1
    occupy(game, german[0], "1317")  # another building: building 2 is still the Russians' alone
    assert result(game)["winner"] == "russian"


def test_scenario_4_units_in_counts_commanders_or_one_squad_r19() -> None:
    """Scenario 4 (R19): the Russian wins with at least three units south of the east-west road,
    counted as its commanders plus the members of one squad; the German with none there and none
    in Buildings 1 and 2."""
    game = empty("s4-tula")
    assert result(game)["winner"] == "german"
    south = ["1010", "1011", "1012", "1013"]
    a, d = units(game, "russian", "A"), units(game, "russian", "D")
    occupy(game, a[0], south[0])
    occupy(game, a[1], south[1])
    occupy(game, d[0], south[2])  # 2 of squad A + 1 of squad D: two count
    assert result(game)["winner"] == "draw"
    occupy(game, units(game, "russian", kind="commander")[0], south[3])
    assert result(game)["winner"] == "russian" and result(game)["condition"] == 1
    game = empty("s4-tula")
    occupy(game, units(game, "russian", "A")[0], "1317")  # north of the road, but in Building 1
    assert result(game)["winner"] == "draw"


def test_hill_p_example_controls_with_at_start_r82() -> None:
    """R82: control is 'the last player to occupy the hex', the hexes named `at_start` held before
    any unit moves: Hill P is German at the start."""
    game = empty("examples/hill-p-counterattack")
    hill = sorted(game.zone_hexes("hill-p"))
    assert result(game)["winner"] == "german" and result(game)["condition"] == 1
    russian = units(game, "russian")
    occupy(game, russian[0], game.label_of(hill[0]))
    assert result(game)["winner"] == "draw"  # neither controls every hex of the hill
    game.relocate(russian[0], "eliminated", None)
    assert result(game)["winner"] == "draw"  # the hex stays the last occupier's
    for h in hill:
        game.control[h] = "russian"
    assert result(game)["winner"] == "russian" and result(game)["condition"] == 0


def test_scenario_6_vp_schedule() -> None:
    """Scenario 6 (R12): the German scores 1 VP per hex of Buildings 1, 3 and 4 he controls and 3 VP
    per other building of Map 1 he controls whole; 0-13 VP a Russian win, 14-18 a draw, 19-34 a
    German win."""
    game = empty("s6-spartakovka")
    buildings = game.board.buildings()
    assert result(game) == {"winner": "russian", "by": "german scored 0 VP (0 x 1 VP, 0 x 3 VP)", "vp": 0}
    for h in buildings["1"]:  # 13 hexes
        game.control[h] = "german"
    assert result(game)["vp"] == 13 and result(game)["winner"] == "russian"
    game.control[sorted(buildings["3"])[0]] = "german"
    assert result(game)["vp"] == 14 and result(game)["winner"] == "draw"
    for h in sorted(buildings["2"])[:-1]:
        game.control[h] = "german"
    assert result(game)["vp"] == 14  # Building 2 counts only whole
    game.control[sorted(buildings["2"])[-1]] = "german"
    assert result(game)["vp"] == 17 and result(game)["winner"] == "draw"
    for h in buildings["5"]:
        game.control[h] = "german"
    assert result(game) == {"winner": "german", "by": "german scored 20 VP (14 x 1 VP, 2 x 3 VP)", "vp": 20}
    game.control[sorted(buildings["1"])[0]] = "russian"  # retaken by the last to occupy it
    assert result(game)["vp"] == 19 and result(game)["winner"] == "german"


def test_R210_R266_a_hex_is_held_by_the_side_in_it_contested_by_both_else_by_its_last_occupant() -> None:
    """24.9: 'To "control" a hex the German player must have been the last player to occupy the hex';
    R210 (the board in play) and R266 (the balance report) read who holds an objective hex alike:
    the side whose units are in it, contested when both sides' are, else its last occupant (or,
    for the report of a scenario without VPs, no one). Seen from a side, the other side's hidden
    units are not there, and the hex they stand in is held by no one it knows of."""
    game = game_at("german", SUPPORT_FIRE)
    h = game.board.hex("1224")
    assert hex_holder(game, h) == "german" and hex_holder(game, h, last_occupant=False) == "german"
    put(game, "russian/A/LMG-PR8-1", "1224")
    assert hex_holder(game, h) == CONTESTED
    for unit in [u for u in game.at(h) if u.side == "german"]:
        put(game, unit.id, "1830")
    assert hex_holder(game, h) == "russian"
    put(game, "russian/A/LMG-PR8-1", "1203")
    assert game.control.get(h) == "german"  # its last occupant as the test's hand put them
    assert hex_holder(game, h) == game.control.get(h) and hex_holder(game, h, last_occupant=False) is None
    lmg = put(game, "russian/A/LMG-PR8-1", "1224")
    lmg.hidden = True
    assert hex_holder(game, h) == "russian" and hex_holder(game, h, side="german") is None
