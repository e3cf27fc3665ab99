"""Superheld maps: the grid of touching cards, its cells read again, its holes and backs, a deck's codes once each."""

from __future__ import annotations

from collections import Counter

import numpy as np

from vision.assignment import min_cost_assignment
from vision.cards.backs import (
    centre_colours,
    centre_medians,
    framed_in_paper,
    index_paper,
    like_backs_seen,
    like_table,
    of_table,
    paper_colour,
    paper_lightness,
    paperless,
    table_lab,
)
from vision.cards.contours import outline_support
from vision.cards.detect import BACK, CARD, Boxes
from vision.cards.geometry import mean_sides, pairwise_iou, portrait_corners, quad_iou, rotate_corners
from vision.cards.grid import Grid, cells_beside, map_grid
from vision.cards.identity import SURE_READING, card_odds, read_cards
from vision.cards.labels import CARD_CODES, UNREAD
from vision.cards.outline import refine
from vision.cards.readings import (
    MIN_READ,
    PROPOSAL_SCORE,
    _apart,
    _best_placed,
    _covered_share,
    _face_down,
    _face_up,
    _in_image,
    _inside_share,
    _lies_on,
    _scaled,
    _unique,
    _without,
)
from vision.cards.reread import _read_again, _rescued
from vision.detections import CardDetections

BARE_SHARE = 0.99  # a map's unread box whose middle is this much of the table's colours is a hole (`_not_bare`)
HOLE_BACK_SCORE = 0.75  # a back whose colour tells backs in a map's empty cells (`_backs_in_holes`) needs this
MAP_BOXES = 20  # this many sure card boxes (MAP_BOX_SCORE) make a map, where the classical sweep is skipped: it
MAP_BOX_SCORE = 0.5  # finds lone cards (touching ones merge) and the map's grid outlines its cards (seed 777: one
# more wrong code of 792; 40 ms less on the standard scene)
HOLE_NEIGHBOURS = 4  # a hole showing an index is read through the cell these nearest cards outline
OFF_GRID_CELL_READ = 0.7  # a map's cell read for an unsure reading off its grid needs this (and to be surer)
EMPTY_CELL_READ = 0.8  # a card read in an empty cell of a map needs this confidence
INDEX_PAPER = 0.3  # a map's empty cell is read again through cells moved a little where an index corner is this pale
# (`_covered`: on a dark cloth most holes show none there and are not read again)
REGRID_OVERLAP = 0.3  # an unread card's outline from the grid must overlap its own this much (the box is near;
# session 9: 0.4 -> 0.3, four unread boxes spanning two cards fewer on the selection sets, one false card more)
GRID_ROUNDS = 3  # a map's unread cards are read through its grid, refitted to the cards read, this many times
FREE_CELL_OVERLAP = 0.1  # a free cell of a map overlapping an unread card's box this much is read (`_regrown`)
CLASH_ROUNDS = 2  # a map's cards read twice draw in the cards read as their next likeliest, this many times over
CLASH_CHOICES = 5  # how many of a card's likeliest codes count as its next likeliest (3: seed 777 one more wrong)
JITTER_PX = 3.0  # a map's unread card is read through its cells moved this far each way (px)
JITTER_SCALES = (0.95, 1.05)  # and scaled by these
JITTER_CELLS = 3  # of its cells nearest its own outline (reading all took 150-350 ms more on a map under a hand)
UNREAD_EDGE = 0.65  # a map's unread box whose outline lies on edges less than this is a hole (`_on_edges`)
ONCE_INSIDE = 0.6  # a map's face this much within a surer one is that card read twice (`_once_each`)
ACROSS_COVERED = 0.75  # a map's unread box this much under the read cards lies across their lines


def may_hold_stacks(in_map: bool, faces: CardDetections) -> bool:
    """Whether weapon stacks may lie in a picture: no map, and the faces read make no grid of touching cards (a
    small map has too few boxes to be taken for one; the stack search there reads touching cards' own indices as
    fanned cards)."""
    if in_map:
        return False
    grid = map_grid(faces.corners, faces.confidence)
    return grid is None or not _mosaic(grid.cells[grid.members])


def _mosaic(cells: np.ndarray) -> bool:
    """Whether grid cells make a mosaic: two rows and two columns holding two cards each at least. A Scoundrel
    room laid nearly edge to edge is one row of a grid, and a stack's card below it (two cells down, across the
    gap a grid may span) made it a grid, so the table's stacks went unread (selection seed 4343)."""
    return all(sum(n >= 2 for n in Counter(cells[:, axis].tolist()).values()) >= 2 for axis in (0, 1))


def is_map(boxes: Boxes) -> bool:
    """Whether the detector sees a map: MAP_BOXES sure face-up or face-down boxes."""
    return len(boxes.of(CARD, MAP_BOX_SCORE).scores) + len(boxes.of(BACK, MAP_BOX_SCORE).scores) >= MAP_BOXES


def _not_bare(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """A map's cards less each unread one whose middle shows nothing but colours the table shows (`of_table` at
    BARE_SHARE): a hole beside a map on a pale check or a white cloth looks like a blank card to the detector, while a
    card of a map shows ink in its middle, an ace's one pip too (fresh seeds 11235 scene 24, 27182 scene 26)."""
    unread = [k for k, c in enumerate(cards.codes) if c == UNREAD]
    if not unread:
        return cards
    table = table_lab(image, cards.corners)
    bare = of_table(image, cards.corners[unread], table, BARE_SHARE)
    return _without(cards, [k for k, b in zip(unread, bare, strict=True) if b])


def _not_across(cards: CardDetections) -> CardDetections:
    """A map's cards less each unread one whose outline the other cards' cover (ACROSS_COVERED): a map's cards
    do not overlap, so such a box lies across the line between two cards read in their own cells (ten seeds 9090
    scene 18: a box 0.84 across a 2H and a 3H, reported as a card)."""
    read = [q for c, q in zip(cards.codes, cards.corners, strict=True) if c != UNREAD]
    drop = [k for k, c in enumerate(cards.codes)
            if c == UNREAD and _covered_share(cards.corners[k], read) >= ACROSS_COVERED]
    return _without(cards, drop)


def _on_edges(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """A map's cards less each unread one whose outline lies on edges less than UNREAD_EDGE (`outline_support`):
    a box over a hole beyond a map's cards floats on the table's pattern, where a card's sides are crisp (ten
    seeds and selection sets: the three false boxes 0.59-0.61, a pale green cloth and a checked one; the two true
    unread cards 0.73 and 0.78)."""
    drop = [k for k, c in enumerate(cards.codes)
            if c == UNREAD and outline_support(image, cards.corners[k]) < UNREAD_EDGE]
    return _without(cards, drop)


def _in_own_cells(image: np.ndarray, grid: Grid, cards: CardDetections) -> CardDetections:
    """A map's cards read through an index box alone (`_read_loose_indices`), each read again through the grid's
    cell nearest it, whose reading as sure as EMPTY_CELL_READ names it with that outline: a card is laid off its
    index box at the box's scale and turn, a map's cell at the map's (seed 99180: a 3S boxed across two cards,
    laid off its index askew and read 3C at 0.99, reads 3S through its cell)."""
    if not len(cards):
        return cards
    near = grid.cells_of(cards.centres)
    codes, conf, corners = read_cards(image, grid.outlines(near))
    out = cards[np.arange(len(cards))]
    for k in range(len(cards)):  # each alone: `holds` joins the points it is given through one another
        if codes[k] in CARD_CODES and conf[k] >= EMPTY_CELL_READ and grid.holds(corners[k].mean(axis=0))[0]:
            out.codes[k], out.confidence[k], out.corners[k] = codes[k], conf[k], corners[k]
    return out


def _off_grid_twice(image: np.ndarray, grid: Grid, cards: CardDetections,
                    held: np.ndarray) -> tuple[CardDetections, np.ndarray]:
    """The cards and which the grid holds, each face-up reading off a map's grid whose code a surer card of the
    map has read again through the empty cells under it: a map is laid from one deck, so the reading is that
    card's index seen through an outline half a cell off (selection seed 777: a 3D under a hand read as the AD
    beside it, at 0.71 against 0.91), and the cell it hid from the grid's look at its holes shows its own card.
    A reading there of a code the map does not hold, as sure as MIN_READ, replaces it; else it is dropped. Any
    other reading off the grid less sure than SURE_READING is read there too, and a surer reading of a code the
    map does not hold (OFF_GRID_CELL_READ at least) replaces it (selection seed 5353: a JD under a hand read 7S at
    0.54 through a box across two cells, read JD at 0.95 in its cell, and a 4D read AH at 0.61, 4D at 0.79 in its
    cell; selection sets 41 -> 38: 39 at 0.8)."""
    up = np.array([c in CARD_CODES for c in cards.codes], bool)
    surest = _surest_of(cards, up & held)
    twice = [k for k in np.nonzero(up & ~held)[0] if surest.get(cards.codes[k], 0.0) > cards.confidence[k]]
    unsure = [k for k in np.nonzero(up & ~held)[0] if k not in twice and cards.confidence[k] < SURE_READING]
    if not (twice or unsure) or int(np.count_nonzero(held)) > len(CARD_CODES):
        return cards, held
    taken = {tuple(c) for c in grid.cells_of(cards.centres[held])}
    cells = {k: [c for c in grid.cells_under(cards.centres[k]) if tuple(c) not in taken] for k in twice + unsure}
    asked = [k for k in twice + unsure if cells[k]]
    out = cards[np.arange(len(cards))]
    if asked:
        codes, conf, corners = read_cards(image, grid.outlines(np.array([c for k in asked for c in cells[k]])))
        start = 0
        for k in asked:
            end = start + len(cells[k])
            fresh = [j for j in range(start, end) if codes[j] in CARD_CODES and codes[j] not in surest
                     and conf[j] >= (MIN_READ if k in twice else max(cards.confidence[k], OFF_GRID_CELL_READ))]
            if fresh:
                j = max(fresh, key=lambda i: conf[i])
                out.codes[k], out.confidence[k], out.corners[k] = codes[j], conf[j], corners[j]
            start = end
    keep = np.array([k not in twice or out.codes[k] != cards.codes[k] for k in range(len(cards))], bool)
    return out[keep], held[keep]


def _surest_of(cards: CardDetections, among: np.ndarray) -> dict[str, float]:
    """Each code read by the cards of the mask `among`, and its surest reading's confidence."""
    surest: dict[str, float] = {}
    for k in np.nonzero(among)[0]:
        surest[cards.codes[k]] = max(surest.get(cards.codes[k], 0.0), float(cards.confidence[k]))
    return surest


def _held_twice(image: np.ndarray, grid: Grid, cards: CardDetections, held: np.ndarray) -> CardDetections:
    """The cards, each face-up one the grid holds, read unsurely (under SURE_READING: the standard map's two decks
    hold 15 codes twice, read at 0.91-0.97), whose code a surer card of the grid reads too read again through
    its own cell, a reading there as sure as MIN_READ of a code no card of the map reads replacing it: a map is laid
    from one deck, and one deck's assignment would otherwise give the surer card another code (fresh seed 72941
    scene 34: a German JH read QC at 0.76 through a box a little off, its cell JH at 0.60; the true QC, read at
    0.93, was renamed QS)."""
    up = np.array([c in CARD_CODES for c in cards.codes], bool) & held
    surest = _surest_of(cards, up)
    twice = [k for k in np.nonzero(up)[0]
             if surest[cards.codes[k]] > cards.confidence[k] and cards.confidence[k] < SURE_READING]
    if not twice:
        return cards
    codes, conf, corners = read_cards(image, grid.outlines(grid.cells_of(cards.centres[twice])))
    out = cards[np.arange(len(cards))]
    for j, k in enumerate(twice):
        if codes[j] in CARD_CODES and codes[j] not in surest and conf[j] >= MIN_READ:
            out.codes[k], out.confidence[k], out.corners[k] = codes[j], conf[j], corners[j]
    return out


def _off_grid_on_map(cards: CardDetections, held: np.ndarray) -> tuple[CardDetections, np.ndarray]:
    """The cards and which the map's grid holds, less the face-up readings off the grid that lie on a card it holds
    (`_lying_on`): a map's card read a second time through an outline half a cell off (selection seed 5353: a 2D
    read as the AS through a box 0.32 over it). Cards beside a map (another deck's piles) lie on none of its."""
    up = np.array([c != "back" for c in cards.codes], bool)
    off = np.nonzero(up & ~held)[0]
    if not len(off) or not held.any():
        return cards, held
    on = np.zeros(len(cards), bool)
    on[off] = _lies_on(cards.corners[off], cards.corners[held & up])
    return cards[~on], held[~on]


def _read_jittered(image: np.ndarray, grid: Grid, cards: CardDetections) -> CardDetections:
    """A map's cards, each unread one read again through its JITTER_CELLS cells (`_cells_of_unread`) nearest its
    own outline, each moved by JITTER_PX and scaled by JITTER_SCALES, the placement whose index reads surest
    taken per cell (`_best_placed`); a reading as sure as TURNED_READ names the card with that outline. A card
    half under a hand keeps an index in view, but a cell a few pixels off its 60 px card puts the index crop
    beside it."""
    unread = np.array([c == UNREAD for c in cards.codes], bool)
    if not unread.any():
        return cards
    which = np.nonzero(unread)[0]
    outlines, owner = _cells_of_unread(image, grid, cards[unread], cards[~unread])
    cells: dict[int, list[np.ndarray]] = {}  # each unread card's JITTER_CELLS cells nearest its own outline
    for j in range(len(which)):
        mine = [o for o, k in zip(outlines, owner, strict=True) if k == j]
        mine.sort(key=lambda o: -quad_iou(o, cards.corners[which[j]]))
        if mine:
            cells[int(which[j])] = mine[:JITTER_CELLS]
    if not cells:
        return cards
    placed = iter(_best_placed(image, [_jitters(o) for k in cells for o in cells[k]]))
    return _read_again(image, cards, {k: [next(placed) for _ in cells[k]] for k in cells}, None)


def _jitters(quad: np.ndarray) -> np.ndarray:
    """(N, 4, 2): the quad moved by JITTER_PX each way and scaled by JITTER_SCALES about its centre."""
    moved = [quad + [dx, dy] for dx in (-JITTER_PX, 0.0, JITTER_PX) for dy in (-JITTER_PX, 0.0, JITTER_PX)]
    return np.concatenate([np.array(moved, np.float32)] + [_scaled(quad, f) for f in JITTER_SCALES])


def _once_each(cards: CardDetections) -> CardDetections:
    """A map's cards with each card read once: of two face-up readings whose outlines overlap by half (cards in a
    map touch, they do not overlap), the surer is kept, and an unread box on a face read is dropped. A fanned
    card's reading (a neighbour's index read through the card beside moved onto it) and a face read again in
    its cell may both land on one card (selection sets: 3 such pairs in 160 scenes, each an extra card). A face
    lying ONCE_INSIDE within a surer one is that card too, though their outlines overlap less (fresh seed 34733
    scene 20: a 7H at 0.45, 0.72 of it within a 9H read at 0.94, at IoU 0.50)."""
    read = np.array([c in CARD_CODES for c in cards.codes], bool)
    unread = np.array([c == UNREAD for c in cards.codes], bool)
    faces = _unique(cards[read])
    faces = faces[_not_within_surer(faces)]
    lone = cards[unread]
    if len(lone) and len(faces):
        lone = lone[~(pairwise_iou(lone.corners, faces.corners) >= 0.5).any(axis=1)]
    return CardDetections.merge([faces, cards[~read & ~unread], lone])


def _not_within_surer(faces: CardDetections) -> np.ndarray:
    """(N,): which faces lie less than ONCE_INSIDE within every surer face; only those read unsurely (under
    SURE_READING) are asked (the standard map's 56 cards: 2 ms for all)."""
    keep = np.ones(len(faces), bool)
    for k in np.nonzero(faces.confidence < SURE_READING)[0]:
        keep[k] = not any(faces.confidence[j] > faces.confidence[k]
                          and _inside_share(faces.corners[k], faces.corners[j]) >= ONCE_INSIDE
                          for j in range(len(faces)))
    return keep


def _regrown(image: np.ndarray, grid: Grid, cards: CardDetections) -> tuple[CardDetections, Grid]:
    """The map's cards with its unread ones read again, round by round (GRID_ROUNDS at most, while a round reads
    any), through the free cells that the grid, refitted to the cards read so far, gives around them; and the
    last grid. A homography fitted to a band of rows (a hand over the rest of the map) tilts the rows beyond
    them, and its cells there cut across two cards; an affine fit to the same cards (`Grid.flat`) does not, so
    the free cells of both are read, and each round's cards join the next round's fit. A free cell overlapping
    an unread card's box (its box spans two cards as often as not) is read, a reading as sure as
    EMPTY_CELL_READ is a card, and the unread boxes on the cards so read are dropped. Selection sets: seed 5353
    40 -> 28 errors (one map under a hand: 17 unread boxes), the other three unchanged."""
    for _ in range(GRID_ROUNDS):
        left = np.array([c == UNREAD for c in cards.codes], bool)
        read, unread = cards[~left], cards[left]
        if not len(unread):
            break
        regrid = map_grid(read.corners, read.confidence)
        if regrid is None:
            break
        grid = regrid
        cells = np.concatenate([g.outlines(g.empty_cells(read.centres)) for g in (grid, grid.flat(read.corners))])
        cells = cells[(pairwise_iou(cells, unread.corners) >= FREE_CELL_OVERLAP).any(axis=1)] if len(cells) else cells
        if not len(cells):
            break
        codes, conf, corners = read_cards(image, cells.astype(np.float32))
        new = _unique(_face_up(codes, corners, conf, _surely_read(codes, conf, range(len(codes)))))
        if not len(new):
            break
        cards = CardDetections.merge([read, new, _apart(unread, new)])
    return cards, grid


def one_deck(image: np.ndarray, cards: CardDetections, in_map: np.ndarray) -> CardDetections:
    """A map's cards with no card read twice: a map of at most 52 cards is laid from one deck, which holds each
    card once, so of two of its cards read as one code (mostly court cards in a map, their letters a few pixels
    tall) one is wrong. The map's cards (`in_map`) read twice, and those read as the cards they are next
    likeliest to be (CLASH_ROUNDS times over), are read again (`card_odds`) and given the codes that are
    likeliest together, each once; the other cards keep theirs. A larger map is laid from two decks and is left
    as read, and so are the cards beside a map (another deck's piles: Superheld's ghost warriors)."""
    faces = [i for i, c in enumerate(cards.codes) if c in CARD_CODES and in_map[i]]
    times = Counter(cards.codes[i] for i in faces)
    ids = {i for i in faces if times[cards.codes[i]] > 1}
    if not ids or int(np.count_nonzero(in_map)) > len(CARD_CODES):
        return cards
    odds: dict[int, np.ndarray] = {}
    for _ in range(CLASH_ROUNDS):
        new = sorted(ids - odds.keys())
        odds.update(zip(new, card_odds(image, cards.corners[new]), strict=True))
        wanted = {CARD_CODES[c] for i in ids for c in np.argsort(-odds[i])[:CLASH_CHOICES]}
        ids |= {i for i in faces if cards.codes[i] in wanted}
    new = sorted(ids - odds.keys())
    odds.update(zip(new, card_odds(image, cards.corners[new]), strict=True))
    rows = sorted(ids)
    held = {cards.codes[i] for i in faces if i not in ids}
    columns = [k for k, c in enumerate(CARD_CODES) if c not in held]
    cost = -np.log(np.maximum(np.array([odds[i][columns] for i in rows]), 1e-4))
    out = cards[np.arange(len(cards))]
    for i, k in zip(rows, min_cost_assignment(cost), strict=True):
        code = CARD_CODES[columns[k]]
        if code != cards.codes[i]:
            out.codes[i], out.confidence[i] = code, float(odds[i][columns[k]])
    return _no_guesses(out, [i for i in rows if out.codes[i] != cards.codes[i] and out.confidence[i] < MIN_READ])


def _no_guesses(cards: CardDetections, guessed: list[int]) -> CardDetections:
    """The cards less each `guessed` one (given a code its reading holds less likely than MIN_READ, the deck's
    only one left) that lies on another card: a card read twice through overlapping outlines, whose second
    reading one deck forced onto a code nothing shows (selection seed 5353: a 2C read twice, one given AS at
    0.00). A guess lying on no card stays: the deck's last code is right more often than not (reporting those
    unread instead: selection sets 38 -> 48, the ten seeds 68 -> 81)."""
    if not guessed:
        return cards
    drop = [i for i in guessed if _lies_on(cards.corners[i][None], np.delete(cards.corners, i, axis=0)).any()]
    return _without(cards, drop)


def _read_in_grid(image: np.ndarray, grid: Grid, faces: CardDetections, others: CardDetections,
                  unread: CardDetections) -> CardDetections:
    """All the cards of a map, read once more through its grid (synthetic seed 777: 45 of 53 wrong codes and
    nearly all of 54 unread cards in maps read right through their true outline, as a box or blob in a mosaic
    of touching cards often spans two of them). The faces read unsurely are read again in their cells, the
    unread cards in the cells the cards around them outline, and the cells holding no card within the map's
    bounds: a card the detector missed, such as one under a hand whose index corner alone shows (selection sets
    47 -> 45 errors against reading only the holes that held one of the detector's unsure face-up boxes, as
    before session 25; the ten measurement seeds alike). The outlines of all three are read in one batch.
    A face read unsurely off the grid takes no cell, and gives way to a card read in a hole it lies on: a box
    half a cell off a map's top card, read 9D at 0.46, kept its cell from being read (fresh seed 31798 scene 6:
    a whole 3C at the map's end missed)."""
    seen = CardDetections.merge([faces, others])
    unsure, unsure_of = _unsure_cells(faces, grid)
    beside, beside_of = _cells_of_unread(image, grid, unread, seen)
    loose = ~grid.members[:len(faces)] & (faces.confidence < SURE_READING)  # take no cell (below)
    loose_faces = faces[loose]
    taken = CardDetections.merge([faces[~loose], others, unread]).corners.mean(axis=1)
    table = table_lab(image, seen.corners)  # for the rim cells and the backs in holes
    rim = _rim_cells(image, grid, taken, table)
    holes = [o for o in grid.outlines(grid.empty_cells(taken, 0)) if _in_image(o, image)] + rim
    outlines = unsure + beside + holes
    if not outlines:
        return CardDetections.merge([seen, unread])
    codes, conf, corners = read_cards(image, np.array(outlines, np.float32))
    a, b = len(unsure), len(unsure) + len(beside)
    faces = _surer(faces, codes[:a], conf[:a], corners[:a], unsure_of)
    sure = (conf[a:b] * unread.confidence[beside_of]) ** 0.5 if beside_of else conf[a:b]  # with the box's score
    rescued, unread = _rescued(unread, codes[a:b], sure, corners[a:b], beside_of, MIN_READ, once=True)
    in_holes = _face_up(codes, corners, conf, _surely_read(codes, conf, range(b, len(codes))))
    shows = [outlines[j] for j in range(b, len(codes))
             if codes[j] not in ("none", "JOKER") and conf[j] < EMPTY_CELL_READ]
    covered = _covered([outlines[j] for j in range(b, len(codes)) if codes[j] == "none" or conf[j] < EMPTY_CELL_READ],
                       image, table)
    in_holes = _unique(CardDetections.merge([in_holes, _in_holes_beside(image, shows, seen), covered]))
    still = _same_outlines(faces, loose_faces)  # the loose faces no cell read surer
    faces, loose_faces = faces[~still], faces[still]
    cards = CardDetections.merge([faces, others, rescued, unread])
    in_holes = _apart(in_holes, cards)  # a face read again may have moved into a hole
    cards = CardDetections.merge([cards, in_holes, _apart(loose_faces, in_holes)])
    bare = [outlines[j] for j in range(b, len(codes)) if codes[j] == "none"]
    return CardDetections.merge([cards, _apart(_backs_in_holes(image, bare, cards, table), cards)])


def _covered(holes: list[np.ndarray], image: np.ndarray, table: np.ndarray | None) -> CardDetections:
    """The cards in a map's empty cells read as no card or unsurely, each read through its cell moved and scaled a
    little (`_jitters`, either way up) where its index reads surest: a hand over a card whose index corner alone
    shows, which the whole map's fit cuts by a few pixels (selection seed 4343 scene 0: a 2H 0.28 of which shows
    read as no card through its cell 2-5 px off, 0.99 through its own outline). Only cells whose middle is not the
    table's colour and whose index corners show paper (INDEX_PAPER) are read so. The 40 synthetic sets 384 -> 359
    errors, all of them maps' cards (`models/cards.md`, session 42)."""
    if not holes:
        return CardDetections()
    quads = np.array(holes, np.float32)
    shows = ~like_table(centre_colours(image, quads), table)
    shows[shows] = index_paper(image, quads[shows], paper_lightness(image)) >= INDEX_PAPER
    ways = [np.concatenate([_jitters(o), _jitters(rotate_corners(o, 2))]) for o in quads[shows]]
    if not ways:
        return CardDetections()
    codes, conf, corners = read_cards(image, _best_placed(image, ways))
    return _face_up(codes, corners, conf, _surely_read(codes, conf, range(len(codes))))


def _surely_read(codes: list[str], conf: np.ndarray, among: range) -> list[int]:
    """Which of the cells `among` read a card (no joker) as surely as EMPTY_CELL_READ."""
    return [j for j in among if codes[j] not in ("none", "JOKER") and conf[j] >= EMPTY_CELL_READ]


def _same_outlines(cards: CardDetections, others: CardDetections) -> np.ndarray:
    """(N,): which cards have the very outline of one of `others`."""
    return np.array([any(np.array_equal(q, o) for o in others.corners) for q in cards.corners], bool)


def _backs_in_holes(image: np.ndarray, holes: list[np.ndarray], cards: CardDetections,
                    table: np.ndarray | None) -> CardDetections:
    """Backs in a map's empty cells that read as no face: a paperless middle of the colour of a sure back the map
    shows (`like_backs_seen`) and not the table's (selection seed 4343: a back under a hand boxed at 0.42 only
    at the larger input). The cell must show a design framed in paper (`framed_in_paper`, the faces' paper colour
    too): a hole on a noisy blue cloth near a blue back's colour has none (fresh seed 97531 scene 28). The back
    must be as sure as HOLE_BACK_SCORE: a hole boxed as a back at 0.56, on a cloth
    lit lighter in the middle than at the border, made every empty cell of a map's bounds a back (fresh seeds
    86111 scene 4 and 52391 scene 30: 17 and 8 false backs; every other set alike)."""
    sure = np.array([c == "back" for c in cards.codes], bool) & (cards.confidence >= HOLE_BACK_SCORE)
    if not holes or not sure.any():
        return CardDetections()
    quads = np.array(holes, np.float32)
    colours = centre_colours(image, quads)
    backs = cards.corners[sure]
    seen = (like_backs_seen(colours, centre_colours(image, backs))
            | like_backs_seen(centre_medians(image, quads), centre_medians(image, backs)))  # a finger on it
    keep = seen & ~like_table(colours, table) & ~of_table(image, quads, table) & paperless(image, quads)
    faces = cards.corners[[c in CARD_CODES for c in cards.codes] & (cards.confidence >= SURE_READING)]
    paper = paper_colour(image, faces) if keep.any() else None
    keep[keep] = [framed_in_paper(image, q, mean_sides(portrait_corners(q)), paper) for q in quads[keep]]
    return _face_down(quads[keep], np.full(int(keep.sum()), PROPOSAL_SCORE), colours[keep])


def _rim_cells(image: np.ndarray, grid: Grid, taken: np.ndarray, table: np.ndarray | None) -> list[np.ndarray]:
    """The outlines of the cells just beyond a map's bounds that no card seen takes and whose middle has not the
    table's colour (`table`: `table_lab`): a card at the map's end the detector missed (selection seed 6464: an ace
    on a noisy cloth)."""
    rim = [o for o in grid.outlines(_ring_cells(grid, taken)) if _in_image(o, image)]
    if not rim:
        return []
    bare = like_table(centre_colours(image, np.array(rim, np.float32)), table)
    return [o for o, t in zip(rim, bare, strict=True) if not t]


def _ring_cells(grid: Grid, taken: np.ndarray) -> np.ndarray:
    """The empty cells one ring beyond the grid's bounds."""
    inner = {tuple(c) for c in grid.empty_cells(taken, 0)}
    return np.array([c for c in grid.empty_cells(taken, 1) if tuple(c) not in inner], int).reshape(-1, 2)


def _in_holes_beside(image: np.ndarray, holes: list[np.ndarray], seen: CardDetections) -> CardDetections:
    """The cards read in a map's empty cells that show an index the grid's own cell reads unsurely, each read
    through the cell as the HOLE_NEIGHBOURS cards nearest it outline it (`cells_beside`): at the map's rim the
    whole map's fit lies a fifth of a card off, cutting the index, and inside it a card under a hand reads through
    its own cell at 0.68 and at 0.87 as its neighbours lay it (seed 99180: a 10S 0.44 of which shows)."""
    if not holes or not len(seen):
        return CardDetections()
    places = [cells_beside(o, seen.corners)[:HOLE_NEIGHBOURS] for o in holes]
    codes, conf, corners = read_cards(image, np.array([q for p in places for q in p], np.float32))
    picked, start = [], 0
    for p in places:
        end = start + len(p)
        best = max(range(start, end), key=lambda j: conf[j] if codes[j] not in ("none", "JOKER") else -1.0)
        if codes[best] not in ("none", "JOKER") and conf[best] >= EMPTY_CELL_READ:
            picked.append(best)
        start = end
    return _face_up(codes, corners, conf, picked)


def _unsure_cells(faces: CardDetections, grid: Grid) -> tuple[list[np.ndarray], list[int]]:
    """The outlines of the cells under each face read unsurely (under SURE_READING), and whose each is. A cell
    held by a card read surely, or by a back (the grid's cards are the faces, then the backs), is left out."""
    sure = grid.members.copy()
    sure[:len(faces)] &= faces.confidence >= SURE_READING
    held = {tuple(c) for c in grid.cells[sure]}
    outlines, owner = [], []
    for k in np.nonzero(faces.confidence < SURE_READING)[0]:
        for cell in grid.cells_under(faces.corners[k].mean(axis=0)):
            if tuple(cell) not in held:
                outlines.append(grid.outline(cell))
                owner.append(int(k))
    return outlines, owner


def _surer(faces: CardDetections, codes: list[str], conf: np.ndarray, corners: np.ndarray,
           owner: list[int]) -> CardDetections:
    """The faces, each with the surest of its readings; two faces then read in one cell are one card."""
    if not owner:
        return faces
    out = list(faces.codes)
    confidence, turned = faces.confidence.copy(), faces.corners.copy()
    for j, k in enumerate(owner):
        if codes[j] not in ("none", "JOKER") and conf[j] > confidence[k]:
            out[k], confidence[k], turned[k] = codes[j], conf[j], corners[j]
    return _unique(CardDetections(out, turned, confidence, faces.backs, faces.index_seen))


def _cells_of_unread(image: np.ndarray, grid: Grid, unread: CardDetections,
                     seen: CardDetections) -> tuple[list[np.ndarray], list[int]]:
    """Outlines for each unread card, and whose each is: the cells around its centre as the grid and the
    cards nearest it outline them, each also tightened on the card's edges; only those on the card's own
    outline (REGRID_OVERLAP) and on no card seen."""
    outlines, owner = [], []
    for k, quad in enumerate(unread.corners):
        for place in cells_beside(quad, seen.corners) + [grid.outline(c) for c in grid.cells_under(quad.mean(axis=0))]:
            for o in (place, portrait_corners(refine(image, place))):
                if quad_iou(o, quad) >= REGRID_OVERLAP:
                    outlines.append(o)
                    owner.append(k)
    if not outlines or not len(seen):
        return outlines, owner
    free = ~(pairwise_iou(np.array(outlines, np.float32), seen.corners) >= 0.5).any(axis=1)
    return [o for o, f in zip(outlines, free, strict=True) if f], [k for k, f in zip(owner, free, strict=True) if f]
