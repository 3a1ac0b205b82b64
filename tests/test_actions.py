"""Integer actions and observation tensors of every game: exact ids, masks, tensors."""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings

import forestgames as fg
from forestgames.bonsai.actions import reachable_cells, tile_bound, wood_bound
from forestgames.bonsai.moves import Place, Prune
from forestgames.bonsai.tree import Tree
from tests.strategies import random_game, reachable_states

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bosk", {"num_players": 2}),
    ("bosk", {"num_players": 3, "squirrel_exactly_three": True}),
    ("bosk", {"num_players": 4}),
    ("bonsai", {"num_players": 1}),
    ("bonsai", {"num_players": 2}),
    ("bonsai", {"num_players": 4, "wood_beside_pot": True, "goal_setup": "published"}),
    ("living_forest", {"num_players": 2}),
    ("living_forest", {"num_players": 4, "duplicate_trees": False, "varan_returns": True}),
    ("boom_bokken", {"num_players": 4}),
    ("boom_bokken", {"num_players": 9}),
    ("boom_bokken", {"num_players": 6, "expert": True}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items())}" for name, options in CONFIGS]


def _check_state(game: Any, state: Any, where: str, deep: bool) -> None:
    """Every seat: each legal move round-trips through its id and the mask is that set."""
    for seat in range(game.num_players):
        moves = state.legal_moves(seat)
        ids = [game.action_id(move) for move in moves]
        for move, action in zip(moves, ids, strict=True):
            assert 0 <= action < game.num_actions, f"{where}: {move} -> {action}"
            assert game.move_from_id(action, seat) == move, f"{where}: {move} -> {action}"
        mask = state.legal_action_mask(seat)
        assert mask.dtype == np.int8 and mask.shape == (game.num_actions,), where
        assert sorted(np.flatnonzero(mask)) == sorted(ids), f"{where}: seat {seat} mask"
        assert len(set(ids)) == len(ids), f"{where}: two legal moves share an id"
        if deep or seat == state.current_player:
            tensor = state.observation_tensor(seat)
            assert tensor.dtype == np.float32 and tensor.shape == game.observation_shape, where
            expected = game.codec.tensor_from_observation(state.observation(seat))
            assert np.array_equal(tensor, expected), f"{where}: seat {seat} tensor != dict's"
            if deep:
                for seed in (1, 2):
                    other = state.determinize(seat, seed)
                    assert np.array_equal(other.observation_tensor(seat), tensor), where


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_random_games_are_exact(name: str, options: dict[str, Any]) -> None:
    """Over random games every legal move of every seat round-trips through its id, the
    mask is exactly the legal set, and the tensor equals the one built from the dict."""
    game = fg.make(name, **options)
    for seed in range(3):
        for step, (state, _) in enumerate(random_game(game, seed)):
            _check_state(game, state, f"{name} seed {seed} step {step}", deep=step % 5 == 0)
        assert not state.legal_action_mask().any()


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_reachable_states_property(name: str) -> None:
    """Hypothesis: in any reachable state, ids, masks and tensors are exact for every seat."""
    game = fg.make(name, num_players=4)

    @settings(max_examples=8, deadline=None)
    @given(reachable_states(game))
    def check(state: Any) -> None:
        _check_state(game, state, f"{name} {state!r}", deep=True)

    check()


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_bad_ids_and_moves_are_refused(name: str, options: dict[str, Any]) -> None:
    """Ids out of range or not ints, bad seats and moves without an id raise IllegalMoveError."""
    game = fg.make(name, **options)
    state = game.new_game(seed=3)
    for bad in (-1, game.num_actions, 2.0, "3", None, True):
        with pytest.raises(fg.IllegalMoveError, match=r"an action id is an int|is outside 0\.\."):
            game.move_from_id(bad, 0)
    for seat in (-1, game.num_players, "0", 1.0):
        with pytest.raises(
            fg.IllegalMoveError,
            match=r"player (must be an int seat number|-?\d+ is not a seat of a)",
        ):
            game.move_from_id(0, seat)
        with pytest.raises(
            fg.IllegalMoveError,
            match=r"player (must be an int seat number|-?\d+ is not a seat of a)",
        ):
            state.observation_tensor(seat)
        with pytest.raises(
            fg.IllegalMoveError,
            match=r"player (must be an int seat number|-?\d+ is not a seat of a)",
        ):
            state.legal_action_mask(seat)
    for move in (None, "0:pass", object(), state):
        with pytest.raises(fg.IllegalMoveError, match="it has no action id"):
            game.action_id(move)
    assert game.move_from_id(np.int64(0), np.int64(0)) == game.move_from_id(0, 0)


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_every_id_decodes_to_a_move_that_encodes_back(name: str, options: dict[str, Any]) -> None:
    """The id space is a bijection with the moves it names: decode then encode is the identity."""
    game = fg.make(name, **options)
    rng = random.Random(0)
    sample = (
        range(game.num_actions)
        if game.num_actions < 5000
        else rng.sample(range(game.num_actions), 5000)
    )
    for seat in {0, game.num_players - 1}:
        for action in sample:
            move = game.move_from_id(action, seat)
            assert move.player == seat and game.action_id(move) == action, (action, move)
            assert game.parse_move(str(move)) == move


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_tensors_in_any_order(name: str, options: dict[str, Any]) -> None:
    """A tensor patched from whatever position its codec saw last (another game, another
    seat) still equals the one built from the observation dict."""
    game = fg.make(name, **options)
    states = [state for seed in (11, 12) for state, _ in random_game(game, seed)]
    rng = random.Random(0)
    picks = rng.sample(states, min(len(states), 60))
    codec = type(game.codec)(game)
    for state in picks:
        seat = rng.randrange(game.num_players)
        expected = codec.tensor_from_observation(state.observation(seat))
        assert np.array_equal(codec.tensor(state, seat), expected), (state, seat)
        codec.tensor_from_observation(rng.choice(picks).observation(seat))  # in between


def test_masks_and_tensors_are_cached_read_only() -> None:
    """Masks and tensors are computed once per state and seat and cannot be written to."""
    state = fg.make("boom_bokken").new_game(seed=1)
    mask, tensor = state.legal_action_mask(), state.observation_tensor(0)
    assert state.legal_action_mask() is mask and state.observation_tensor(0) is tensor
    with pytest.raises(ValueError, match="read-only"):
        mask[0] = 1
    with pytest.raises(ValueError, match="read-only"):
        tensor[0] = 1.0


# ---------------------------------------------------------------------- Bosk's fixed layout


@pytest.mark.parametrize(("players", "total"), [(2, 385), (3, 617), (4, 905)])
def test_bosk_layout(players: int, total: int) -> None:
    """Bosk's ids follow the documented layout (the one VectorBosk uses)."""
    game = fg.make("bosk", num_players=players)
    s, n = game.size, game.size - 1
    assert game.num_actions == total == 5 * n * n + 12 + 2 * s * s
    bosk = fg.bosk
    assert game.action_id(bosk.PlantTree(1, 3, (2, 4))) == 2 * n * n + 2 * n + 4
    assert game.action_id(bosk.ChooseWind(0, "S")) == 4 * n * n + 2
    assert game.action_id(bosk.ChooseTree(0, (1, 2))) == 4 * n * n + 4 + n + 2
    assert game.action_id(bosk.ChooseTile(0, bosk.SQUIRREL)) == 5 * n * n + 4
    assert game.action_id(bosk.ChooseTile(0, 8)) == 5 * n * n + 11
    assert game.action_id(bosk.PlaceLeaf(0, (3, 1))) == 5 * n * n + 12 + 3 * s + 1
    assert game.action_id(bosk.PlaceSquirrel(0, (0, 0))) == 5 * n * n + 12 + s * s
    assert game.action_id(bosk.PlaceSquirrel(0, (s - 1, s - 1))) == total - 1
    for move in (bosk.PlantTree(0, 5, (0, 0)), bosk.PlaceLeaf(0, (s, 0)), bosk.ChooseTile(0, 9)):
        with pytest.raises(fg.IllegalMoveError, match="not a Bosk move these options can ever"):
            game.action_id(move)


def test_bosk_board_planes_reshape() -> None:
    """The front of a Bosk tensor reshapes to (C, S, S) planes; a planted tree shows there."""
    game = fg.make("bosk", num_players=2)
    state = game.new_game(seed=0, first_player=0).apply(fg.bosk.PlantTree(0, 2, (3, 4)))
    c, s, _ = game.codec.board_shape
    planes = state.observation_tensor(1)[: c * s * s].reshape(c, s, s)
    # seat 0 is one place after observer 1: block 1; value 2 is plane index 1 of that block
    assert planes[1 * 4 + 1, 3, 4] == 1.0 and planes[:8].sum() == 1.0


def test_bosk_terrain_planes_are_the_maps_types() -> None:
    """``terrain`` plane k of every seat's tensor is 1 exactly on the squares [i, j] whose
    id in the game's map (an option, here the default map turned) is k, 0 elsewhere."""
    default = np.asarray(fg.make("bosk", num_players=2).terrain)
    turned = default.T[::-1]
    assert not np.array_equal(turned, default)
    game = fg.make("bosk", num_players=2, terrain=turned.tolist())
    state = game.new_game(seed=0, first_player=0).apply(fg.bosk.PlantTree(0, 2, (3, 4)))
    for seat in (0, 1):
        planes = game.codec.layout.field(state.observation_tensor(seat), "terrain")
        for k in range(8):
            np.testing.assert_array_equal(planes[k], (turned == k).astype(np.float32))


# ---------------------------------------------------------------------- Bonsai's bound


def test_bonsai_bounds_from_the_card_table() -> None:
    """W and T follow from the deck: 2p has 32 cards, Masters give 5 wood (wild, wood+wood,
    wood+leaf) and 12 tiles, so W = 1 + 32 + 5 = 38 and T = 2 + 2*32 + 12 = 78."""
    assert (wood_bound(1), wood_bound(2), wood_bound(3), wood_bound(4)) == (38, 38, 54, 58)
    assert (tile_bound(2), tile_bound(4)) == (78, 124)
    assert len(reachable_cells(40, False)) == 4656


@pytest.mark.parametrize(
    ("players", "plain", "beside"),
    [(1, 4656, 5400), (2, 4656, 5400), (3, 9216, 10248), (4, 10596, 11700)],
)
def test_bonsai_cell_counts_are_the_documented_ones(players: int, plain: int, beside: int) -> None:
    """C is 4 656, 9 216, 10 596 cells for 1-2, 3, 4 players; with ``wood_beside_pot`` (a cell
    beside the pot is step 1 of a path, not step 0) 5 400, 10 248, 11 700; num_actions is
    60 + 5C (docs/bonsai.md)."""
    for wood_beside_pot, count in ((False, plain), (True, beside)):
        game = fg.make("bonsai", num_players=players, wood_beside_pot=wood_beside_pot)
        assert len(game.codec.cells) == count and game.num_actions == 60 + 5 * count


def test_bonsai_codec_cells_are_the_place_ids_cells() -> None:
    """``codec.cells`` lists (q, r) pairs in id order, sorted by (r, q): Place(kind, cell c)
    is id 60 + kind*C + c and Prune(cell c) 60 + 4C + c (the layout docs/bonsai.md gives)."""
    game = fg.make("bonsai", num_players=2)
    cells = game.codec.cells
    assert len(cells) == 4656 and cells == tuple(sorted(cells, key=lambda qr: (qr[1], qr[0])))
    assert all(type(q) is int and type(r) is int for q, r in cells)
    for c in (0, 1234, len(cells) - 1):
        assert game.move_from_id(60 + 2 * len(cells) + c, 1) == Place(1, "flower", cells[c])
        assert game.move_from_id(60 + 4 * len(cells) + c, 0) == Prune(0, cells[c])
        assert game.action_id(Place(0, "wood", cells[c])) == 60 + c


def test_bonsai_cells_reach_exactly_the_bound() -> None:
    """A straight wood trunk of W tiles with a leaf and a flower on top fits the action space,
    and one cell further up does not: the bound is tight along the trunk."""
    game = fg.make("bonsai", num_players=2)
    w = game.codec.wood_bound
    tiles = {(0, -k): "wood" for k in range(1, w + 1)}
    tiles[(0, -w - 1)] = "leaf"
    tree = Tree.from_tiles(tiles)
    assert fg.bonsai.can_place({**tiles}, (0, -w - 2), "flower")
    assert tree.open_cells(2)
    place = fg.bonsai.Place(0, "flower", (0, -w - 2))
    assert game.move_from_id(game.action_id(place), 0) == place
    never = "not a Bonsai move these options can ever allow"
    with pytest.raises(fg.IllegalMoveError, match=never):
        game.action_id(fg.bonsai.Place(0, "flower", (0, -w - 3)))
    with pytest.raises(fg.IllegalMoveError, match=never):
        game.action_id(fg.bonsai.Place(0, "wood", (0, 1)))  # a pot cell


# ---------------------------------------------------------------------- Boom Bokken


def test_boom_bokken_groups_and_relative_targets() -> None:
    """Expert mode numbers every Coureur group; targets are offsets from the player."""
    expert = fg.make("boom_bokken", num_players=6, expert=True)
    assert len(expert.codec.groups) == 8 * (7 * 3 - 1)  # up to 6 orange and 2 Flash, not none
    plain = fg.make("boom_bokken", num_players=4)
    assert plain.num_actions == 16 * 3 * 2 + 16 + 3 + 1 + 1
    play = fg.boom_bokken.Play
    # seat 3 naming seat 0 and seat 0 naming seat 1 are both "the next seat": one id
    assert plain.action_id(play(3, ("5",), 0, "higher")) == plain.action_id(
        play(0, ("5",), 1, "higher")
    )
    knock = play(2, ("4",), 4, "lower", True)
    assert expert.move_from_id(expert.action_id(knock), 2) == knock
    never = "not a Boom Bokken move these options can ever allow"
    with pytest.raises(fg.IllegalMoveError, match=never):
        plain.action_id(knock)
    with pytest.raises(fg.IllegalMoveError, match=never):
        plain.action_id(play(1, ("5",), 1, "higher"))  # naming oneself


# ---------------------------------------------------------------------- the docs


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("bosk", {"num_players": 2}),
        ("bonsai", {"num_players": 2}),
        ("living_forest", {"num_players": 2}),
        ("boom_bokken", {"num_players": 4}),
    ],
)
def test_docs_tables_are_the_layouts(name: str, options: dict[str, Any]) -> None:
    """Each game's docs page shows its tensor layout exactly as the codec builds it (Living
    Forest's also its block of one Spirit's fields, SPIRIT_LAYOUT)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / f"{name}.md").read_text(encoding="utf-8")
    game = fg.make(name, **options)
    assert game.codec.layout.table() in text
    if name == "living_forest":
        assert fg.living_forest.actions.SPIRIT_LAYOUT.table() in text
    assert f"{game.num_actions}" in text.replace(" ", "").replace(",", "")


def test_living_forest_doc_ids() -> None:
    """The Living Forest id bases in the docs are the codec's (2 players: M = 10)."""
    codec = fg.make("living_forest", num_players=2).codec
    bases = (codec.spend_base, codec.attract_base, codec.extinguish_base, codec.move_base)
    assert bases == (4, 16, 67, 70)
    assert (codec.victory_base, codec.plant_base, codec.num_actions) == (80, 83, 263)


@pytest.mark.parametrize("name", fg.GAME_NAMES)
@pytest.mark.parametrize("player", [float("inf"), 1.5, None, -1, 99, 2**70])
def test_action_id_of_a_move_whose_player_is_no_seat(name, player):
    """action_id of a move of this game whose player is not a seat (inf, a float, 99) is an
    IllegalMoveError (Boom Bokken's relative targets raised OverflowError for inf)."""
    game = fg.make(name, num_players=4)
    state = game.new_game(seed=1)
    move = state.legal_moves(state.players_to_act[0])[0]
    with pytest.raises(fg.IllegalMoveError, match="player"):
        game.action_id(attrs.evolve(move, player=player))


def _numpy_fields(move: Any, kind: type) -> Any:
    """``move`` rebuilt with each int in its fields (in tuples too) a numpy integer of
    ``kind`` (a negative one an int16 when ``kind`` is unsigned)."""

    def numpy(value: Any) -> Any:
        if isinstance(value, tuple):
            return tuple(numpy(item) for item in value)
        if type(value) is not int:
            return value
        return np.int16(value) if value < 0 and np.dtype(kind).kind == "u" else kind(value)

    return type(move)(**{f.name: numpy(getattr(move, f.name)) for f in attrs.fields(type(move))})


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_a_legal_move_built_from_numpy_integers_has_its_id(name, options):
    """A legal move built with numpy integers in its fields (``PlantTree(0, np.int64(3),
    at)``) has the id and notation of the move it equals, its fields but the seat are
    ints, and it applies to the same state. Bosk's values and tiles and Living Forest's
    fire values, steps and sources had no id, and an unsigned seat gave Boom Bokken's
    and Living Forest's relative targets wrong ids."""
    game = fg.make(name, **options)
    kinds = (np.int64, np.uint8, np.int32, np.uint64)
    for state, _ in list(random_game(game, 3))[:-1:3]:
        for seat in state.players_to_act:
            moves = state.legal_moves(seat)
            for k, move in enumerate(moves):
                built = _numpy_fields(move, kinds[k % len(kinds)])
                assert built == move
                assert game.action_id(built) == game.action_id(move), repr(built)
                assert str(built) == str(move)
                assert repr(attrs.evolve(built, player=seat)) == repr(move)
            for kind in kinds:
                assert state.apply(_numpy_fields(moves[0], kind)) == state.apply(moves[0])


class _ReadLog(dict[str, Any]):
    """An observation dict that logs the path of every key read from it (nested too)."""

    def __init__(self, data: dict[str, Any], path: tuple[str, ...], read: set[tuple[str, ...]]):
        super().__init__(data)
        self.path, self.read = path, read

    def __getitem__(self, key: str) -> Any:
        self.read.add((*self.path, key))
        return _logged(super().__getitem__(key), (*self.path, key), self.read)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def items(self) -> Any:
        return ((key, self[key]) for key in self)

    def values(self) -> Any:
        return (self[key] for key in self)


def _logged(value: Any, path: tuple[str, ...], read: set[tuple[str, ...]]) -> Any:
    if isinstance(value, dict):
        return _ReadLog(value, path, read)
    if isinstance(value, list):
        return [_logged(item, (*path, "[]"), read) for item in value]
    return value


def _key_paths(value: Any, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    if isinstance(value, dict):
        return {
            p
            for key, item in value.items()
            for p in {(*path, key)} | _key_paths(item, (*path, key))
        }
    if isinstance(value, list):
        return {p for item in value for p in _key_paths(item, (*path, "[]"))}
    return set()


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_tensor_reads_every_field_of_the_observation(name: str, options: dict[str, Any]) -> None:
    """``tensor_from_observation`` reads every key of ``observation(seat)`` (nested ones too)
    but the game's own constants (``game``, ``num_players``, fixed by the options): a field
    it never reads cannot be in the tensor, and the tensor must hold all the dict shows."""
    game = fg.make(name, **options)
    shown: set[tuple[str, ...]] = set()
    read: set[tuple[str, ...]] = set()
    for seed in range(2):
        for step, (state, _) in enumerate(random_game(game, seed)):
            if step % 3 == 0:
                for seat in range(game.num_players):
                    observation = state.observation(seat)
                    shown |= _key_paths(observation)
                    game.codec.tensor_from_observation(_ReadLog(observation, (), read))
    assert shown - read <= {("game",), ("num_players",)}


def test_boom_bokken_tensor_holds_what_all_know_of_hidden_cards() -> None:
    """Seat 1 observes a 4-player position (seat 0 exploded on "lower than 1"; the deck's
    known bottom is F1 then 1; everyone knows seat 2 holds an 8). Observer order puts seats
    1, 2, 3, 0 in blocks 0..3. By hand: ``deck_bottom_counts`` 1 at codes 9 (F1) and 1;
    ``deck_bottom`` codes + 1 in order: 10, 2, then zeros; ``known_cards`` block 1 (seat 2)
    1 at code 8; ``exploded_on`` block 3 (seat 0): 1 at code 1 and at column 17 (lower).
    The per-seat fields of the round follow the same order: ``teams`` [1, 0, 0, 1] by seat
    reads 0, 0, 1, 1 in blocks 0..3, and last round's first safe seat (1, the observer) is
    ``history_safe`` column 0 (both were once written by seat, unseen: the observation
    reader shares that code)."""
    hands = [["2", "3", "5", "5", "7", "8", "F4"], ["T", "T", "1", "6", "8", "F6"]]
    hands += [["1", "2", "6", "7", "8", "F8"], ["T", "1", "2", "4", "5", "6", "7"]]
    deck = "F1 F4 4 1 F5 4 3 2 8 6 3 3 5 7 7 T F2 4 8 F7 4 5 5 F2 F3 6 T 3 6 2 4 F6 1 T"
    deck += " F5 F3 F7 8 2 F8 3 7 F1 1"
    game = fg.make("boom_bokken", num_players=4)
    state = game.state_from_dict(
        {
            "game": "boom_bokken", "num_players": 4, "seed": 0, "hands": hands,
            "deck": deck.split(), "round": 2, "over": False, "teams": [1, 0, 0, 1],
            "roles": None, "pile": [], "aside": 0, "safe": [], "exploded": [0], "leader": 1,
            "target": None, "announce": None, "last_player": None, "tokens": [1, 1, 1, 1],
            "history": [{"safe_order": [1], "teams": [1, 0, 0, 1]}],
            "known_cards": [[], [], ["8"], []], "exploded_on": [["1", "lower"]],
            "known_bottom": 2,
        }
    )  # fmt: skip
    tensor, layout = state.observation_tensor(1), game.codec.layout

    def field(name: str) -> np.ndarray:
        return layout.field(tensor, name)  # type: ignore[no-any-return]

    assert np.flatnonzero(field("deck_bottom_counts")).tolist() == [1, 9]
    assert field("deck_bottom")[:3].tolist() == [10, 2, 0] and not field("deck_bottom")[2:].any()
    known = np.zeros((4, 17))
    known[1, 8] = 1
    np.testing.assert_array_equal(field("known_cards"), known)
    exploded_on = np.zeros((4, 20))
    exploded_on[3, 1] = exploded_on[3, 17] = 1
    np.testing.assert_array_equal(field("exploded_on"), exploded_on)
    assert field("teams").argmax(axis=-1).tolist() == [0, 0, 1, 1]
    assert field("teams").sum() == 4
    assert np.flatnonzero(field("history_safe")[0]).tolist() == [0]
    assert field("history_safe")[0, 0] == 1
    expected = game.codec.tensor_from_observation(state.observation(1))
    np.testing.assert_array_equal(tensor, expected)


def test_layout_fields_cut_tensors_and_batches() -> None:
    """``layout.field`` gives one field, shaped, of a tensor or of a batch (a view at
    ``offset[name]``); an unknown field or a tensor of another size is a ConfigError; the
    repr names every field's shape."""
    game = fg.make("bosk", num_players=2)
    layout, tensor = game.codec.layout, game.new_game(seed=0).observation_tensor(0)
    start, shape = layout.offset["terrain"], layout.shape["terrain"]
    terrain = layout.field(tensor, "terrain")
    assert terrain.shape == shape and np.shares_memory(terrain, tensor)
    np.testing.assert_array_equal(terrain.ravel(), tensor[start : start + terrain.size])
    batch = np.stack([tensor, tensor * 2])
    np.testing.assert_array_equal(layout.field(batch, "terrain")[1], 2 * terrain)
    with pytest.raises(fg.ConfigError, match="no tensor field 'board'"):
        layout.field(tensor, "board")
    with pytest.raises(fg.ConfigError, match="ends in an axis of"):
        layout.field(tensor[:-1], "terrain")
    assert f"terrain={shape}" in repr(layout) and repr(layout).endswith(f"size {layout.size})")


def _served(game: Any, seed: int, moves: int = 80) -> list[tuple[bytes, bytes]]:
    """Mask and tensor (as bytes) of the seat to act along one seeded random game."""
    rng, state, out = random.Random(seed), game.new_game(seed=seed), []
    while not state.is_terminal and len(out) < moves:
        seat = state.players_to_act[0]
        out.append(
            (state.legal_action_mask(seat).tobytes(), state.observation_tensor(seat).tobytes())
        )
        state = state.apply(rng.choice(state.legal_moves(seat)))
    return out


@pytest.mark.parametrize(
    ("name", "players"), [("bonsai", 3), ("bosk", 4), ("living_forest", 3), ("boom_bokken", 5)]
)
def test_one_game_serves_masks_and_tensors_to_many_threads(name, players):
    """A server keeps one game and answers requests in threads: every mask and tensor
    is the one a single thread gets (Bonsai's masks took other threads' ids from a shared
    buffer, Bosk's and Living Forest's tensors mixed positions, Bosk's raised KeyError)."""
    shared = fg.make(name, num_players=players)
    seeds = range(12)
    expected = [_served(fg.make(name, num_players=players), seed) for seed in seeds]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as Python can
    try:
        with ThreadPoolExecutor(4) as pool:
            served = list(pool.map(lambda seed: _served(shared, seed), seeds))
    finally:
        sys.setswitchinterval(interval)
    assert served == expected


@pytest.mark.parametrize(
    ("name", "players"), [("bonsai", 2), ("bosk", 2), ("living_forest", 2), ("boom_bokken", 4)]
)
def test_a_tensor_seat_is_an_int_in_every_game(name, players):
    """``True`` and ``1.0`` are no seats for any game's tensor (Bonsai's returned seat 1's
    tensor once it was cached, where the others refused)."""
    state = fg.make(name, num_players=players).new_game(seed=1)
    state.observation_tensor(1)
    for seat in (True, 1.0, "1", -1, players):
        with pytest.raises(
            fg.IllegalMoveError,
            match=r"player (must be an int seat number|-?\d+ is not a seat of a)",
        ):
            state.observation_tensor(seat)
        with pytest.raises(
            fg.IllegalMoveError, match=r"player must be a seat number|seat -?\d+ is not in"
        ):
            state.game.codec.tensor(state, seat)


@pytest.mark.parametrize(("name", "options"), CONFIGS[::3])
def test_states_unpickled_one_at_a_time_share_their_game_and_codec(name, options):
    """Each pickle.loads of a state (a state sent to a worker) gives the one game of those
    options in this process, so its codec's tables are built once (it rebuilt them per
    state: over 1 ms a mask in Bosk and Boom Bokken); other options, another game."""
    import pickle

    state = fg.make(name, **options).new_game(seed=3)
    first, second = (pickle.loads(pickle.dumps(state)) for _ in range(2))
    assert first.game is second.game and first.game == state.game
    assert first.game.codec is second.game.codec
    np.testing.assert_array_equal(second.legal_action_mask(), state.legal_action_mask())
    count = options["num_players"]
    count += 1 if count < state.game.traits.max_players else -1
    other = fg.make(name, **{**options, "num_players": count})
    assert pickle.loads(pickle.dumps(other.new_game(seed=3))).game is not first.game


# ---------------------------------------------------------------------- ids: exactly the moves


def _bosk_candidates(game: Any, me: int) -> Iterator[tuple[Any, int | None]]:
    """Bosk moves on and just off every edge of the id ranges, with the docs' id or None."""
    b, s, n = fg.bosk, game.size, game.size - 1
    edges = (-1, 0, n - 1, n, s - 1, s)
    for r, c in itertools.product(edges, edges):
        point = 0 <= r < n and 0 <= c < n
        square = 0 <= r < s and 0 <= c < s
        for v in (0, 1, 4, 5, True):
            valid = point and type(v) is int and 1 <= v <= 4
            yield b.PlantTree(me, v, (r, c)), (v - 1) * n * n + r * n + c if valid else None
        yield b.ChooseTree(me, (r, c)), 4 * n * n + 4 + r * n + c if point else None
        yield b.PlaceLeaf(me, (r, c)), 5 * n * n + 12 + r * s + c if square else None
        yield b.PlaceSquirrel(me, (r, c)), 5 * n * n + 12 + s * s + r * s + c if square else None
    for d in ("N", "E", "S", "W", "X", "n", ""):
        yield b.ChooseWind(me, d), 4 * n * n + "NESW".index(d) if d and d in "NESW" else None
    for tile in (-1, 0, 1, 8, 9, True):
        valid = type(tile) is int and 1 <= tile <= 8
        yield b.ChooseTile(me, tile), 5 * n * n + 4 + tile - 1 if valid else None


def _bonsai_candidates(game: Any, me: int) -> Iterator[tuple[Any, int | None]]:
    """Bonsai moves: every Meditate combination, goals, kinds, and cells in the list, just
    beyond it, on the pot, not pairs of ints, or 1024 rows away (the engine packs a cell
    into one int, 1024 values per coordinate)."""
    b, cells = fg.bonsai, game.codec.cells
    kinds, wilds = ("wood", "leaf", "flower", "fruit"), (None, "wood", "leaf", "flower", "fruit")
    for slot, tile, wild in itertools.product(range(6), (None, *kinds), (*wilds, "bud")):
        valid = (
            1 <= slot <= 4
            and wild != "bud"
            and (tile in ("wood", "leaf") if slot == 2 else tile is None)
        )
        index = (
            (slot - 1) * 5
            + (5 if slot > 2 else 0)
            + (5 if tile == "leaf" else 0)
            + wilds.index(wild)
            if valid
            else None
        )
        yield b.Meditate(me, slot, tile, wild), index
    yield b.Finish(me), 25
    colours = ("brown", "green", "orange", "pink", "blue")
    for colour, tier in itertools.product((*colours, "red"), range(5)):
        goal = (
            colours.index(colour) * 3 + tier - 1 if colour in colours and 1 <= tier <= 3 else None
        )
        yield b.ClaimGoal(me, colour, tier), None if goal is None else 30 + goal
        yield b.RenounceGoal(me, colour, tier), None if goal is None else 45 + goal
    c = len(cells)
    (q0, r0), (q1, r1) = cells[0], cells[-1]
    w = game.codec.wood_bound
    for kind in (*kinds, "bud"):
        yield b.Discard(me, kind), 26 + kinds.index(kind) if kind in kinds else None
        index = kinds.index(kind) if kind in kinds else None
        for at in ((q0, r0), (q1, r1)):
            yield b.Place(me, kind, at), None if index is None else 60 + index * c + cells.index(at)
        for at in ((0, 1), (0, -w - 3), (q0, r0 - 1), (q1, r1 + 1), (0, -2, 0), (0, 2.0),
                   (0.0, -2), (True, -2), (-1, -2 + 1024), (1, -2 - 1024), (0, 2**70)):  # fmt: skip
            yield b.Place(me, kind, at), None
    for at in ((q0, r0), (q1, r1)):
        yield b.Prune(me, at), 60 + 4 * c + cells.index(at)
    for at in ((0, 1), (0, -2, 0), (0.0, -2), (-1, -2 + 1024), (0, -w - 3)):
        yield b.Prune(me, at), None


def _living_forest_candidates(game: Any, me: int) -> Iterator[tuple[Any, int | None]]:
    """Living Forest moves: every card for SpendFragment and Attract, fire values, steps,
    sources and trees on and off the ranges, cells on and off the 3 x 5 forest."""
    lf, p = fg.living_forest, game.num_players
    m = 12 - p
    solitary = [name for name, card in lf.CARDS.items() if card.symbol == 1]
    reserve = [
        name
        for level in ("I", "II", "III")
        for name, card in lf.CARDS.items()
        if card.level == level
    ]
    assert (len(solitary), len(reserve)) == (12, 51)
    for k, simple in enumerate((lf.Reveal, lf.Stop, lf.TakeFragment, lf.Done)):
        yield simple(me), k
    for name in lf.CARDS:
        yield lf.SpendFragment(me, name), 4 + solitary.index(name) if name in solitary else None
        yield lf.Attract(me, name), 16 + reserve.index(name) if name in reserve else None
    for value in (1, 2, 4, 5, True):
        yield (
            lf.Extinguish(me, value),
            67 + value - 2 if type(value) is int and 2 <= value <= 4 else None,
        )
    for steps in (0, 1, m, m + 1, True):
        yield (
            lf.MoveSpirit(me, steps),
            70 + steps - 1 if type(steps) is int and 1 <= steps <= m else None,
        )
    sources = (-1, 0, me, p - 1, p, True)  # True: no seat, though it equals 1
    for source, kind in itertools.product(sources, ("tree", "fire", "flower", "sun")):
        seat = type(source) is int and 0 <= source < p and source != me
        valid = seat and kind in ("tree", "fire", "flower")
        k = (source - me) % p
        index = 70 + m + (k - 1) * 3 + ("tree", "fire", "flower").index(kind) if valid else None
        yield lf.TakeVictory(me, source, kind), index
    order = ("start", "3A", "3B", "4A", "4B", "5A", "5B", "6", "7", "8", "9", "10", "11")
    trees = ("start", "3A", "11", "12")
    for tree, (row, col) in itertools.product(
        trees, itertools.product((-1, 0, 2, 3), (-1, 0, 4, 5))
    ):
        valid = tree in ("3A", "11") and 0 <= row < 3 and 0 <= col < 5
        number = order.index(tree) if valid else 0  # "start" is 0, never planted
        index = 70 + m + 3 * (p - 1) + (number - 1) * 15 + row * 5 + col if valid else None
        yield lf.Plant(me, tree, (row, col)), index
    yield lf.Plant(me, "3A", (0, 0, 0)), None


def _boom_bokken_candidates(game: Any, me: int) -> Iterator[tuple[Any, int | None]]:
    """Boom Bokken plays, knocks and explosions: targets and next leaders on and off the
    table (oneself too), announcements, groups a Coureur may or may not play."""
    bb, p, expert = fg.boom_bokken, game.num_players, game.expert
    singles = (*(str(v) for v in range(1, 9)), *(f"F{v}" for v in range(1, 9)))
    groups = list(game.codec.groups)
    if not expert:
        assert groups == [(name,) for name in singles]
    g = len(groups)
    knock = g * (p - 1) * 2
    final = knock + (16 * (p - 1) if expert else 0)
    boom = final + g
    for cards in (("5",), ("F8",), ("5", "5"), ("5", "F5"), ("T",), ("9",), ()):
        index = groups.index(cards) if cards in groups else None
        yield bb.Play(me, cards), None if index is None else final + index
        yield bb.Play(me, cards, None, "lower"), None
        for target, announce in itertools.product(
            (-1, 0, 1, 2, p - 1, p, True), ("lower", "higher", None)
        ):
            seat = type(target) is int and 0 <= target < p and target != me  # True: no seat
            valid = index is not None and seat and announce is not None
            k, a = (target - me) % p, ("lower", "higher").index(announce) if announce else 0
            yield (
                bb.Play(me, cards, target, announce),
                (index * (p - 1) + k - 1) * 2 + a if valid else None,
            )
            knocks = valid and expert and len(cards) == 1 and cards[0] in singles[:8]
            value = int(cards[0]) if knocks else 0
            yield (
                bb.Play(me, cards, target, announce, True),
                knock + ((value - 1) * (p - 1) + k - 1) * 2 + a if knocks else None,
            )
    for leader in (-1, 0, 1, 2, p - 1, p, True):
        yield (
            bb.Boom(me, leader),
            boom + (leader - me) % p - 1
            if type(leader) is int and 0 <= leader < p and leader != me
            else None,
        )
    yield bb.Boom(me, None), boom + p - 1
    yield bb.TimeOut(me), boom + p


_CANDIDATES: dict[str, Callable[[Any, int], Iterator[tuple[Any, int | None]]]] = {
    "bosk": _bosk_candidates,
    "bonsai": _bonsai_candidates,
    "living_forest": _living_forest_candidates,
    "boom_bokken": _boom_bokken_candidates,
}


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_only_the_documented_moves_have_ids(name: str, options: dict[str, Any]) -> None:
    """Moves on and just off each edge of the docs' id table: a move in range has the id
    the docs' formula gives (and decodes back to itself); any other move has none."""
    game = fg.make(name, **options)
    valid = 0
    me = game.num_players - 1  # not seat 0: offsets and ids leave the seat out
    for move, expected in _CANDIDATES[name](game, me):
        if expected is None:
            with pytest.raises(fg.IllegalMoveError, match="so it has no action id"):
                game.action_id(move)
        else:
            valid += 1
            assert game.action_id(move) == expected, move
            assert game.move_from_id(expected, me) == move
    assert valid >= 10
