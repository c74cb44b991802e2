"""``yaml_file.compose`` goes through libyaml when PyYAML has it: its node trees must be
those of PyYAML's Python parser (values, tags, positions), and a text libyaml refuses
must get the Python parser's error."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tileopt.pipelines import yaml_file

REPO = Path(__file__).resolve().parents[3]
FILES = sorted([*(REPO / "tileopt" / "pipelines" / "builtin").glob("*.yaml"),
                *(REPO / "test" / "lit" / "pipelines").rglob("*.yaml")])


def shape(node):
    """What the loader reads of a node: kind, tag, value, start and end positions."""
    if node is None:
        return None
    marks = (node.start_mark.line, node.start_mark.column, node.end_mark.line,
             node.end_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.value, node.style or None, marks)  # plain: None or ""
    if isinstance(node, yaml.SequenceNode):
        return ("sequence", node.tag, [shape(item) for item in node.value], marks)
    return ("mapping", node.tag, [(shape(k), shape(v)) for k, v in node.value], marks)


def python_compose(text: str):
    return yaml.compose(text, Loader=yaml.SafeLoader)


@pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_same_nodes_as_the_python_parser(path):
    text = path.read_text()
    try:
        expected = shape(python_compose(text))
    except yaml.YAMLError as err:
        with pytest.raises(yaml.YAMLError) as got:
            yaml_file.compose(text)
        assert str(got.value) == str(err)
        return
    assert shape(yaml_file.compose(text)) == expected


@pytest.mark.parametrize("text", [
    "name: x  # ünïcode before\nstages:\n  ttir: [a, \"b\", 'c']\n  é: {k: 1.5, m: ~}\n",
    "a: |\n  two\n  lines\nb: &x [1, 2]\nc: *x\n",
])
def test_same_nodes_for_other_texts(text):
    assert shape(yaml_file.compose(text)) == shape(python_compose(text))


@pytest.mark.parametrize("text", ["a: b: c\n", "a: [1, 2\n", "a:\n\t- b\n", "{a: 1, a"])
def test_a_refused_text_gets_the_python_parsers_error(text):
    with pytest.raises(yaml.YAMLError) as err:
        python_compose(text)
    with pytest.raises(yaml.YAMLError) as got:
        yaml_file.compose(text)
    assert str(got.value) == str(err.value)
