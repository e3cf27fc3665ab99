"""`companion enroll ...`: teach a deck, a tile edition or the Strijders cards; list, export, import, remove.

Profiles live in `~/.table-companion/profiles/` (or `$TABLE_COMPANION_HOME/profiles`, or `--home`).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.cli import UsageError

GRIDS_HELP = "one: the whole deck in one photo; two: spades+hearts, then diamonds+clubs (backs in both)"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("enroll", help="teach a deck, tile edition or Strijders cards; manage the profiles")
    p.add_argument("--home", help="profile folder (default $TABLE_COMPANION_HOME/profiles or "
                                  "~/.table-companion/profiles)")
    inner = p.add_subparsers(dest="action", required=True, metavar="ACTION")

    c = inner.add_parser("cards", help="enroll a deck from grid photos, a video, or one photo per card")
    c.add_argument("name")
    c.add_argument("--photo", action="append", default=[], help="a photo of the laid grid (once or twice)")
    c.add_argument("--grid", choices=("one", "two"), help=GRIDS_HELP)
    c.add_argument("--video", help="a short video panning slowly over the laid grid")
    c.add_argument("--shots", help="a folder with one photo per card named by its code (QS.jpg, 10H.png, back0.jpg)")
    c.add_argument("--backs", type=int, default=1, help="backs laid in the last row, one per deck (default 1)")
    _common(c)
    c.set_defaults(run=run_cards)

    t = inner.add_parser("tiles", help="enroll a Carcassonne edition from a photo of tiles A..X in the 5x5 grid")
    t.add_argument("name")
    t.add_argument("--photo", action="append", default=[], required=True)
    _common(t)
    t.set_defaults(run=run_tiles)

    s = inner.add_parser("strijders", help="enroll Strijders cards: one photo per card, named by its catalog id")
    s.add_argument("name")
    s.add_argument("--shots", required=True, help="folder of photos named by card id (heks.jpg, ...)")
    s.add_argument("--catalog", help="the catalog (JSON or CSV) the ids come from; unknown ids are refused")
    s.add_argument("--force", action="store_true", help="replace a profile of that name")
    s.set_defaults(run=run_strijders)

    lst = inner.add_parser("list", help="the stored profiles")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(run=run_list)

    e = inner.add_parser("export", help="write a profile as one .zip")
    e.add_argument("name")
    e.add_argument("file")
    e.set_defaults(run=run_export)

    i = inner.add_parser("import", help="read a profile .zip")
    i.add_argument("file")
    i.add_argument("--name", help="store it under this name instead")
    i.add_argument("--force", action="store_true", help="replace a profile of that name")
    i.set_defaults(run=run_import)

    r = inner.add_parser("remove", help="delete a profile")
    r.add_argument("name")
    r.set_defaults(run=run_remove)

    d = inner.add_parser("identify", help="identify the cards or tiles laid apart in a photo with a profile")
    d.add_argument("name")
    d.add_argument("photo")
    d.set_defaults(run=run_identify)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--allow-missing", action="store_true", help="keep the profile even if some are not found")
    p.add_argument("--force", action="store_true", help="replace a profile of that name")


def _store(args: argparse.Namespace) -> Any:
    from vision.enroll.store import ProfileStore

    return ProfileStore(args.home)


def _guarded(work: Callable[[], Any]) -> Any:
    """Run enrollment code, turning its player-facing errors into a usage error (exit 2)."""
    from vision.enroll.deck import EnrollError
    from vision.enroll.grids import GridError
    from vision.enroll.media import MediaError
    from vision.enroll.store import ProfileError

    try:
        return work()
    except (EnrollError, GridError, MediaError, ProfileError) as exc:
        raise UsageError(str(exc)) from None


def _save(args: argparse.Namespace, profile: Any, notes: list[str]) -> int:
    store = _store(args)
    if store.exists(profile.name) and not args.force:
        raise UsageError(f"a profile named {profile.name!r} exists; add --force to replace it")
    path = _guarded(lambda: store.save(profile, overwrite=True))
    for note in notes:
        print(f"note: {note}")
    print(f"enrolled {profile.kind} profile {profile.name!r}: {len(profile.labels)} labels, "
          f"{profile.manifest.get('samples', 0)} samples -> {path}")
    return 0


def _check_new(args: argparse.Namespace) -> None:
    """Refuse early (before minutes of work) when the name is bad or taken."""
    store = _store(args)
    if _guarded(lambda: store.exists(args.name)) and not args.force:
        raise UsageError(f"a profile named {args.name!r} exists; add --force to replace it")


def run_cards(args: argparse.Namespace) -> int:
    from vision.enroll import deck, media

    _check_new(args)
    sources = sum(bool(x) for x in (args.photo, args.video, args.shots))
    if sources != 1:
        raise UsageError("give the deck as --photo (once or twice), or --video, or --shots")
    if not 1 <= args.backs <= 4:
        raise UsageError("--backs must be 1 to 4")
    if args.video:
        frames = _guarded(lambda: media.read_video(args.video))
        profile, notes = _guarded(lambda: deck.enroll_video(args.name, frames, args.backs, args.allow_missing))
    elif args.shots:
        shots = [(stem, _guarded(lambda p=p: media.read_image(p))) for stem, p in
                 _guarded(lambda: media.named_images(args.shots))]
        profile, notes = _guarded(lambda: deck.enroll_shots(args.name, _card_labels(shots), args.allow_missing,
                                                            args.backs))
    else:
        if len(args.photo) > 2:
            raise UsageError("one or two --photo")
        grid = args.grid or ("two" if len(args.photo) == 2 else "one")
        if grid == "two" and len(args.photo) != 2:
            raise UsageError("--grid two needs two photos: spades+hearts first, then diamonds+clubs")
        layouts = ["two-a", "two-b"] if grid == "two" else ["one"] * len(args.photo)
        photos = [(_guarded(lambda p=p: media.read_image(p)), g) for p, g in zip(args.photo, layouts, strict=True)]
        profile, notes = _guarded(lambda: deck.enroll_photos(args.name, photos, args.backs, args.allow_missing))
    return _save(args, profile, notes)


def _card_labels(shots: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """File stems as card codes: `qs`, `10H`, `TH` become QS, 10H; `back0` stays."""
    from engine.cards import CardError, parse_card

    out = []
    for stem, image in shots:
        if stem.lower().startswith("back"):
            out.append((stem.lower(), image))
            continue
        try:
            out.append((parse_card(stem).code, image))
        except CardError:
            raise UsageError(f"{stem}: name each photo by its card (QS.jpg, 10H.png) or back0.jpg") from None
    return out


def run_tiles(args: argparse.Namespace) -> int:
    from vision.enroll import edition, media

    _check_new(args)
    photos = [_guarded(lambda p=p: media.read_image(p)) for p in args.photo]
    profile, notes = _guarded(lambda: edition.enroll_edition(args.name, photos, args.allow_missing))
    return _save(args, profile, notes)


def run_strijders(args: argparse.Namespace) -> int:
    from vision.enroll import media, strijders

    _check_new(args)
    ids = _catalog_ids(Path(args.catalog)) if args.catalog else None
    shots = [(stem, _guarded(lambda p=p: media.read_image(p))) for stem, p in
             _guarded(lambda: media.named_images(args.shots))]
    title = Path(args.catalog).name if args.catalog else ""
    profile, notes = _guarded(lambda: strijders.enroll_catalog(args.name, shots, ids, title))
    return _save(args, profile, notes)


def _catalog_ids(path: Path) -> list[str]:
    from companion.strijders_catalog import load_catalog_file
    from engine.game import RecordError
    from engine.strijders.catalog import read_catalog

    try:
        catalog = read_catalog(load_catalog_file(path), str(path))
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    return [card.id for card in catalog.cards]


def run_list(args: argparse.Namespace) -> int:
    rows = _guarded(lambda: _store(args).summaries())
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    if not rows:
        print(f"no profiles in {_store(args).root}")
        return 0
    for r in rows:
        missing = f", missing {len(r['missing'])}" if r["missing"] else ""
        print(f"{r['name']}\t{r['kind']}\t{r['labels']} labels{missing}\t{r['created']}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    target = Path(args.file)
    if target.suffix.lower() != ".zip":
        raise UsageError("the export file must end in .zip")
    try:
        _guarded(lambda: _store(args).export_zip(args.name, target))
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    print(f"exported {args.name!r} -> {target}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    store = _store(args)
    name = _guarded(lambda: store.import_zip(Path(args.file), args.name, overwrite=args.force))
    print(f"imported profile {name!r} into {store.root}")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    _guarded(lambda: _store(args).remove(args.name))
    print(f"removed profile {args.name!r}")
    return 0


def run_identify(args: argparse.Namespace) -> int:
    from vision.enroll import media
    from vision.enroll.locate import find_quads, portrait
    from vision.enroll.matcher import Matcher

    profile = _guarded(lambda: _store(args).load(args.name))
    image = _guarded(lambda: media.read_image(args.photo))
    quads = find_quads(image).quads
    if profile.kind != "tiles":
        quads = [portrait(q) for q in quads]
    found = Matcher(profile).identify_many(image, quads) if len(quads) else []
    print(json.dumps([{"label": f.label, "score": round(f.score, 3), "rotation": f.rotation,
                       "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in f.corners]}
                      for f in found]))
    return 0
