"""forestgames.schema, the declared shapes a game's saved state is read with: each spec
reads what it declares (lists as tuples, numpy scalars as Python values) and refuses
anything else with a StateError naming the path, what was expected and what was found."""

import numpy as np
import pytest

import forestgames as fg
from forestgames.schema import (
    Bool,
    Choice,
    Const,
    Field,
    Int,
    List,
    Map,
    Nullable,
    Record,
    StateSchema,
    Str,
    Tuple,
)

NAMES = Choice([f"n{k}" for k in range(13)])  # 13 choices: the message shows 12


@pytest.mark.parametrize(
    ("spec", "value", "read"),
    [
        (Int(), -(10**30), -(10**30)),
        (Int(0, 3), 0, 0),
        (Int(0, 3), 3, 3),
        (Int(0, 3), np.int8(2), 2),
        (Int(low=5), 5, 5),
        (Int(high=5), -7, -7),
        (Bool(), True, True),
        (Bool(), np.bool_(False), False),
        (Str(max_len=3), "abc", "abc"),
        (Str(pattern="[a-c]+"), "cab", "cab"),
        (NAMES, "n12", "n12"),
        (Const("bosk"), "bosk", "bosk"),
        (Const(3), np.int64(3), 3),
        (Nullable(Int(0, 1)), None, None),
        (Nullable(Int(0, 1)), 1, 1),
        (List(Int()), [1, 2], (1, 2)),
        (List(Int(), length=2), (1, 2), (1, 2)),
        (List(Int(), min_len=1, max_len=2), [7], (7,)),
        (Tuple(Int(), Str()), [1, "a"], (1, "a")),
        (Record({"a": Int(), "b": Int()}, frozenset({"b"})), {"a": 1}, {"a": 1}),
        (Map(Str(), Int(), max_len=2), {"x": 1, "y": 2}, {"x": 1, "y": 2}),
    ],
)
def test_a_spec_reads_what_it_declares(spec, value, read):
    """Each spec takes the values it declares, at its bounds too, and returns them in
    Python form: a list as a tuple, a numpy int or bool as the int or bool it is."""
    result = spec.read(value, "x")
    assert result == read and type(result) is type(read)


@pytest.mark.parametrize(
    ("spec", "value", "message"),
    [
        (Int(), 1.0, "x must be an int, not 1.0"),
        (Int(), True, "x must be an int, not True"),
        (Int(0, 3), 4, r"x must be an int in 0\.\.3, not 4"),
        (Int(0, 3), -1, r"x must be an int in 0\.\.3, not -1"),
        (Int(low=5), 4, "x must be an int >= 5, not 4"),
        (Int(high=5), 6, "x must be an int <= 5, not 6"),
        (Bool(), 1, "x must be true or false, not 1"),
        (Str(max_len=3), "abcd", "x must be a string of at most 3 characters, not 'abcd'"),
        (Str(pattern="[a-c]+"), "cad", r"of at most 64 characters of the form \[a-c\]\+"),
        (Str(pattern="[a-c]+", form="a word of a, b, c"), 3, "x must be a word of a, b, c"),
        (NAMES, "n13", r"x must be one of 'n0', .*'n11', \.\.\., not 'n13'"),
        (Choice(["N", "S"]), "E", "x must be one of 'N', 'S', not 'E'"),
        (Const(3), True, "x must be 3, not True"),
        (Const(3), "3", "x must be 3, not '3'"),
        (Nullable(Int(0, 1)), 2, r"x must be an int in 0\.\.1, not 2"),
        (List(Int()), "12", r"x must be a list of 0\.\.10000 items, not '12'"),
        (List(Int(), length=2), [1], r"x must be a list of 2 items, not 1 item: \[1\]"),
        (List(Int(), min_len=1, max_len=2), [], r"x must be a list of 1\.\.2 items, not 0 items"),
        (List(Int(), max_len=2), [1, 2, 3], r"x must be a list of 0\.\.2 items, not 3 items"),
        (List(Int(), form="a row of ints"), {}, "x must be a row of ints, not {}"),
        (List(Int()), [1, "2"], r"x\[1\] must be an int, not '2'"),
        (Tuple(Int(), Str()), [1], "x must be a list of 2 items, not 1 item"),
        (Tuple(Int(), Str()), [1, 2], r"x\[1\] must be a string"),
        (Record({"a": Int()}), [], "x must be an object, not \\[\\]"),
        (Record({"a": Int(), "b": Int()}, frozenset({"b"})), {"b": 1}, "x lacks a"),
        (Record({"a": Int()}), {"a": 1, "c": 2}, "x has unknown keys c"),
        (Record({"a": Int()}), {"a": "1"}, "x.a must be an int"),
        (Map(Str(), Int(), max_len=1), {"x": 1, "y": 2}, "x must be an object of at most 1"),
        (Map(Str(max_len=1), Int()), {"long": 1}, "x key must be a string of at most 1"),
        (Map(Str(), Int()), {"k": "v"}, "x.'k' must be an int, not 'v'"),
    ],
)
def test_a_spec_refuses_anything_else_naming_the_path(spec, value, message):
    """A value a spec does not take raises StateError saying where, what was expected and
    what was found (a list of the wrong length by its length)."""
    with pytest.raises(fg.StateError, match=message):
        spec.read(value, "x")


def test_unknown_keys_are_listed_up_to_a_bound():
    """A record given many unknown keys names a few of them (its own key count plus 5),
    each cut to 30 characters, not all of them."""
    data = {"a": 1, **{f"{'k' * 40}{n}": n for n in range(100)}}
    with pytest.raises(fg.StateError) as error:
        Record({"a": Int()}).read(data, "x")
    named = str(error.value).removeprefix("x has unknown keys ").split(", ")
    assert named == ["k" * 30] * 5


def test_a_state_schema_writes_and_reads_its_fields():
    """A state schema writes one key per field in order, reads them back checked, and
    refuses text (with the hint to parse it first), a list and a missing key."""
    schema = StateSchema("Toy", (Field("n", Int(0, 9), len), Field("s", Str(), str)))
    assert schema.write("abc") == {"n": 3, "s": "abc"}
    assert schema.read({"n": 3, "s": "abc"}) == {"n": 3, "s": "abc"}
    with pytest.raises(fg.StateError, match=r"a Toy state must be a JSON object .*json\.loads"):
        schema.read('{"n": 3}')
    with pytest.raises(fg.StateError, match=r"a Toy state must be a JSON object, not \[\]"):
        schema.read([])
    with pytest.raises(fg.StateError, match="Toy state lacks s"):
        schema.read({"n": 3})
