"""Search algorithms: textbook reference functions, the production Searcher and its drivers."""
