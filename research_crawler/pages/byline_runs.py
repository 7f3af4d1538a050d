"""The one byline among many: a page that sets "By <name>" under each story it lists beside its own (the related
stories, "More from this section", a river of teasers) shows many author fields, but only one of them is its item's.

A byline is one place on the page: a line, or a run of lines close together (a record's "Author:" rows, one name a
row; names with their affiliations between). Author fields far apart from each other are each another story's
byline; the item's is the run nearest its title (the byline sits by the headline: under it, or over it where the
page repeats its headline in another form), else, where no title is known, the page's first."""

from __future__ import annotations

__all__ = ["RUN_GAP", "item_byline_run"]

#: The most blocks between two author fields of one byline (a name, its affiliation and e-mail lines, the next name).
RUN_GAP = 6


def item_byline_run(fields: list[tuple[int, str]], title_index: int | None) -> list[tuple[int, str]]:
    """The author fields (block index, value) of the item's byline: every field where they all sit together, else
    the run of them nearest block `title_index` (the page's first run where no title is known)."""
    if len(fields) < 2:
        return fields
    ordered = sorted(fields)
    runs: list[list[tuple[int, str]]] = [[ordered[0]]]
    for field in ordered[1:]:
        if field[0] - runs[-1][-1][0] <= RUN_GAP:
            runs[-1].append(field)
        else:
            runs.append([field])
    if len(runs) == 1:
        return fields
    if title_index is None:
        return [field for field in fields if field in runs[0]]
    # (the distance from the title to the run's nearest field; a run below the title wins a tie)
    chosen = min(runs, key=lambda run: (min(abs(index - title_index) for index, _ in run), run[0][0] < title_index))
    return [field for field in fields if field in chosen]
