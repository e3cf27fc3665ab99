"""Face-down cards: which detector boxes and classical blobs are backs, and of which design."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.backs import (
    centre_colours,
    framed_in_paper,
    like_a_design,
    like_backs_seen,
    like_table,
    look_like_backs,
    of_table,
    paper_colour,
    paperless,
    table_lab,
)
from vision.cards.detect import INDEX, Boxes
from vision.cards.geometry import card_shape_off, pairwise_iou
from vision.cards.identity import SURE_READING
from vision.cards.readings import PROPOSAL_SCORE, SHAPE_OFF, _card_size, _face_down, _lies_on, _lying_on, _outlines
from vision.detections import CardDetections

FRAMED_BACK = 0.5  # a back box this sure whose design is framed in paper is a back whatever its middle's colour
HOLELESS_BACK = 0.9  # off a map a back box this sure is a back though its middle has the table's colour
BACK_SCORE = 0.5  # a face-down box needs this score: below it the detector mostly sees backs in table patterns
BACK_PAPER_MOST = 0.5  # a face-down box whose middle is this much paper or more is none (backs: 0.12 at most)
OUTLINED_BACK = 0.5  # ... unless a classical blob of a back's colour overlaps it this much


def _outlined(image: np.ndarray, backs: Boxes, proposals: np.ndarray) -> np.ndarray:
    """(N,): which face-down boxes a classical blob outlines (IoU OUTLINED_BACK) whose middle shows a back's
    (`look_like_backs`): a card-shaped blob of a back's colour is no pattern in the table."""
    out = np.zeros(len(backs.scores), bool)
    if not len(backs.scores) or not len(proposals):
        return out
    iou = pairwise_iou(backs.quads, proposals)
    ask = np.nonzero((backs.scores < BACK_SCORE) & (iou.max(axis=1) >= OUTLINED_BACK))[0]  # the sure need no blob
    blobs = np.asarray(proposals, np.float32)[iou[ask].argmax(axis=1)].reshape(-1, 4, 2)
    out[ask] = look_like_backs(image, blobs, centre_colours(image, blobs))
    return out


def _not_faces(backs: Boxes, faces: CardDetections, outlined: np.ndarray) -> Boxes:
    """Face-down boxes where no face was read: a face read over one, or around its centre, proves the detector
    wrong (a court card's red picture looks like a back to it); so does a back far smaller than the faces, and a
    box scoring under BACK_SCORE (40 synthetic scenes, seed 777: 6 of 13 false backs, none of 146 true ones) unless
    a classical blob of a back outlines it (`outlined`). A back seen twice (two overlapping boxes) is one."""
    areas = [cv2.contourArea(f) for f in faces.corners]
    least = 0.4 * float(np.median(areas)) if areas else 0.0
    keep = (~_lies_on(backs.quads, faces.corners) & np.array([cv2.contourArea(q) >= least for q in backs.quads], bool)
            & ((backs.scores >= BACK_SCORE) | outlined))
    twins = _lying_on(backs.quads, backs.quads)
    chosen: list[int] = []  # one box per back: of two overlapping boxes the more confident
    for i in np.argsort(-backs.scores):
        if keep[i] and not twins[i, chosen].any():
            chosen.append(int(i))
    idx = np.array(sorted(chosen), int)
    return Boxes(backs.quads[idx].reshape(-1, 4, 2), backs.classes[idx], backs.scores[idx])


def _found(boxes: Boxes, conf: float, faces: CardDetections) -> np.ndarray:
    """Quads of everything found on the table: the detector's sure boxes of cards and backs, and the faces read."""
    sure = (boxes.scores >= conf) & (boxes.classes != INDEX)
    return np.concatenate([boxes.quads[sure].reshape(-1, 4, 2), faces.corners.reshape(-1, 4, 2)]).astype(np.float32)


def face_down(image: np.ndarray, backs: Boxes, faces: CardDetections, proposals: np.ndarray,
              found: np.ndarray, holes: bool = True) -> CardDetections:
    """The face-down cards of the detector's back boxes (`_not_faces`, `_backs`), the classical blobs vouching for
    unsure ones (`_outlined`), and so do sure backs of their colour (`_as_sure_backs`). `holes`: the table may
    show through a map's holes here."""
    vouched = _outlined(image, backs, proposals) | _as_sure_backs(image, backs)
    kept = _not_faces(backs, faces, vouched)
    sizes = [_card_size(faces, near=q.mean(axis=0)) for q in kept.quads]
    return _backs(image, kept, found, holes, sizes, faces.corners[faces.confidence >= SURE_READING])


def _as_sure_backs(image: np.ndarray, backs: Boxes) -> np.ndarray:
    """(N,): which unsure face-down boxes (under BACK_SCORE) show the middle of a sure one's (`like_backs_seen`): a
    second back of a design the table already shows (selection seed 8642: a pile boxed at 0.48 beside a back of
    0.96, their middles 2 apart). A pattern in the table matches none, or is the table's colour (`_backs`)."""
    sure = backs.scores >= BACK_SCORE
    out = np.zeros(len(backs.scores), bool)
    if sure.any() and not sure.all():
        colours = centre_colours(image, backs.quads)
        out[~sure] = like_backs_seen(colours[~sure], colours[sure])
    return out


def _backs(image: np.ndarray, backs: Boxes, found: np.ndarray, holes: bool = True,
           cards: list[tuple[float, float] | None] | None = None, sure: np.ndarray | None = None) -> CardDetections:
    """Face-down cards, but none of the table's own colour (see `backs.like_table`), which a map's hole shows;
    where no map lies (`holes` False) a box as sure as HOLELESS_BACK is kept whatever its colour: a red back
    on a red cloth, its white border all that tells it (ten measurement seeds: two Scoundrel piles, 0.95-0.98).
    Anywhere, a box as sure as FRAMED_BACK whose design lies framed in paper a border's width inside a card of the
    size there (`backs.framed_in_paper`; `cards`: per box, the size of the faces read surely nearest it, None
    where none is: a map in perspective has larger cards near the camera) is a back: a hole shows the table out to
    its neighbours' edges (fresh seed 57721: seven blue backs of a map on a blue cloth, six kept; selection seed
    52001 scene 2: three blue backs near and far from the camera, the picture's median card 6% off their size).
    `sure`: the faces read surely, whose paper's colour (`paper_colour`) frames a cream deck's design too."""
    outlines = _outlines(image, backs)
    colours = centre_colours(image, outlines)
    table = table_lab(image, found) if len(outlines) else None
    keep = ~like_table(colours, table) & ~of_table(image, outlines, table)
    if cards is not None:  # a back of the table's colour shows its design framed in its border, a hole does not
        ask = [k for k in np.nonzero(~keep & (backs.scores >= FRAMED_BACK))[0] if cards[k] is not None]
        paper = paper_colour(image, sure) if len(ask) and sure is not None else None
        keep[ask] = [framed_in_paper(image, outlines[k], cards[k], paper) for k in ask]
    if not holes:
        keep |= backs.scores >= HOLELESS_BACK
    keep[keep] = paperless(image, outlines[keep], BACK_PAPER_MOST)  # half its middle paper: a face, or a pale table
    return _face_down(outlines[keep], backs.scores[keep], colours[keep])


def _backs_unread(image: np.ndarray, backs: CardDetections, unread: CardDetections,
                  found: np.ndarray) -> tuple[CardDetections, CardDetections]:
    """The backs among the unread face-up cards (`backs.look_like_backs`), moved to the backs, and the unread
    cards left; of both, none whose middle has the table's colour (`like_table`): a hole in a map on a pale
    table looks like a blank card to the detector, as a dark one's looks like a back (seed 4343: one false
    unread card of 7, and none of the true ones). Nor one whose middle shows no paper and only colours the
    table shows (`of_table`, `paperless`): a hole on a cloth lit unevenly lies far from the border's mean
    (selection seed 777: a hole on a green table, 7.3 from it; the real tune half unchanged). Either needs nearly
    every pixel of the middle in a colour the table shows (`of_table`): on a cluttered counter the border's mean
    was a court picture's mean too (real tune IMG_2509 turned a quarter: a lone KC boxed at 0.91, dropped before
    its turned outline read it). Paper is as light as the picture allows (`paper_lightness`): in the tune half at
    0.55 of its light six cards were dropped as holes on a cloth (IMG_2452: a 9S boxed at 0.8)."""
    if not len(unread):
        return backs, unread
    colours = centre_colours(image, unread.corners)
    lab = table_lab(image, found)
    bare = paperless(image, unread.corners)  # a back's middle and the table's alike: judged once for both
    table = of_table(image, unread.corners, lab) & (like_table(colours, lab) | bare)
    unread, colours, bare = unread[~table], colours[~table], bare[~table]
    turned = look_like_backs(image, unread.corners, colours, bare)
    seen = _face_down(unread.corners[turned], unread.confidence[turned], colours[turned])
    return CardDetections.merge([backs, seen]), unread[~turned]


def _blob_backs(image: np.ndarray, proposals: np.ndarray, seen: CardDetections, found: np.ndarray) -> CardDetections:
    """Backs the detector missed: card-shaped classical blobs read as no face and lying on no card seen, whose
    middle has a back design's colour (`like_a_design`; its white rings show paper) and not the table's
    (selection seed 6464: a close-up pile of a plain-deck back, boxed at 0.19, as large cards often are)."""
    blobs = np.asarray(proposals, np.float32).reshape(-1, 4, 2)
    if not len(blobs):
        return CardDetections()
    alone = ~_lying_on(blobs, seen.corners).any(axis=1) if len(seen) else np.ones(len(blobs), bool)
    blobs = blobs[alone & np.array([card_shape_off(b) <= SHAPE_OFF for b in blobs], bool)]
    if not len(blobs):
        return CardDetections()
    colours = centre_colours(image, blobs)
    lab = table_lab(image, found)
    keep = like_a_design(colours) & ~like_table(colours, lab) & ~of_table(image, blobs, lab)
    return _face_down(blobs[keep], np.full(int(keep.sum()), PROPOSAL_SCORE), colours[keep])
