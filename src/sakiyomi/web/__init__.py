"""``sakiyomi serve``: a local web app to play every game and watch the search think.

The server (``server.py``, Starlette on uvicorn) is stateless about games: the page sends the
game, its start position and the moves played, and every request is checked by the same
parsers as the command line (``state.py``).  Searches run in worker threads (``jobs.py``) and
stream their progress over a WebSocket; boards are SVG drawn here (``boards.py``), the teaching
view steps through a recorded search (``teach.py``, ``steps.py``), and ``notebook.py`` gives
the same pictures to Jupyter.
"""
