"""docs/notebook.ipynb runs from top to bottom (nbclient), and what it shows renders inline."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from sakiyomi.web import notebook as nb

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "notebook.ipynb"


def test_the_example_notebook_executes() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    src = str(Path(__file__).resolve().parent.parent / "src")
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    client = NotebookClient(notebook, timeout=240, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = [o for o in outputs if o.output_type == "execute_result"]
    assert any("image/svg+xml" in o.data for o in shown)
    assert any("text/html" in o.data for o in shown)


def test_pictures_render_inline() -> None:
    tree = nb.tree("tree", "[[3,5,1],[7,3,-4],[-3,0,3]]", "negamax")
    assert tree._repr_svg_().startswith("<svg")
    result = nb.search("tictactoe", "xx.oo....", depth=3)
    html = result._repr_html_()
    assert "win in 1" in html and result.pv[0] == "3" and "pv-mark" in html
    assert 'data-cell="3"' in nb.board("tictactoe", "xx.oo....")._repr_svg_()
    view = nb.node_table("tree", "[[3,5,1],[7,3,-4],[-3,0,3]]")
    assert view._repr_html_().count("<tr>") == 1 + len(view.report.rows)
