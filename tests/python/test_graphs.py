"""Graphs (version-2 recipes) through Field.from_recipe: every graph of tests/data/graphs.txt
gives its value and gradient bit for bit (from the file's hex bits), as a scalar call, an array
call and a gradient; a bad graph is refused with the library's message naming the node."""
import struct

import numpy as np
import pytest

import perlin


def from_hex(h):
    return struct.unpack(">d", bytes.fromhex(h))[0]


def graphs(test_data):
    """(recipe, point, value, gradient) of every row of graphs.txt, the numbers from their bits."""
    for line in (test_data / "graphs.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        recipe, point, _value, _gradient, hexbits = line.split("\t")
        dims = len(point.split())
        bits = [from_hex(h) for h in hexbits.split()]
        assert len(bits) == 2 * dims + 1, recipe
        yield recipe, bits[:dims], bits[dims], bits[dims + 1:]


def same(a, b):
    return struct.pack("<d", a) == struct.pack("<d", b)


def test_every_graph_gives_its_value_and_gradient_bit_for_bit(test_data):
    n = 0
    for recipe, point, value, gradient in graphs(test_data):
        f = perlin.Field.from_recipe(recipe)
        got = f(*point)
        assert same(got, value), (recipe, got, value)
        arr = f(*[np.array([c]) for c in point])
        assert same(float(arr[0]), value), recipe
        v, g = f.gradient(*point)
        assert same(v, value), recipe
        assert len(g) == len(gradient)
        for a, b in zip(g, gradient):
            assert same(float(a), b), (recipe, list(g), gradient)
        # Written back: the graph's own text, or for a one-field graph that field's version-1
        # recipe (the same bits).
        back = f.recipe
        if back != recipe:
            assert back.startswith("perlin=1&"), (recipe, back)
            assert same(perlin.Field.from_recipe(back)(*point), value)
        n += 1
    assert n >= 30


def test_a_cycle_is_refused_naming_the_node():
    with pytest.raises(ValueError, match=r"^b\.in: a cycle: a -> b -> a$"):
        perlin.Field.from_recipe("perlin=2&out=a&a=add&a.in=b,b&b=abs&b.in=a")
