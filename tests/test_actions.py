"""Integer actions and observation tensors of every game: exact ids, masks, tensors."""

from __future__ import annotations

import random
import sys
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


# ---------------------------------------------------------------------- Bonsai's bound


def test_bonsai_bounds_from_the_card_table() -> None:
    """W and T follow from the deck: 2p has 32 cards, Masters give 5 wood (wild, wood+wood,
    wood+leaf) and 12 tiles, so W = 1 + 32 + 5 = 38 and T = 2 + 2*32 + 12 = 78."""
    assert (wood_bound(1), wood_bound(2), wood_bound(3), wood_bound(4)) == (38, 38, 54, 58)
    assert (tile_bound(2), tile_bound(4)) == (78, 124)
    assert len(reachable_cells(40, False)) == 4656


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
    """Each game's docs page shows its tensor layout exactly as the codec builds it."""
    text = (Path(__file__).resolve().parents[1] / "docs" / f"{name}.md").read_text(encoding="utf-8")
    game = fg.make(name, **options)
    assert game.codec.layout.table() in text
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
