"""`companion vision-eval [--real DIR] [--split S] [--scenes N] [--seed S]`: the card recogniser's accuracy,
real and synthetic."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion.cli import UsageError
from vision.real_photos import SPLITS, SUITS_FILE

DEFAULT_REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-cards-dev"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("vision-eval", help="measure card recall and rank accuracy (real photos, synthetic scenes)")
    p.add_argument("--real", type=Path, default=DEFAULT_REAL, help="folder of photos with VOC .xml boxes")
    p.add_argument("--split", choices=SPLITS, default="held-out",
                   help="which real photos: held-out (odd positions, never used to fine-tune; the default), tune, all")
    p.add_argument("--suits", type=Path, default=SUITS_FILE,
                   help="the real photos' suits (default: datasets/cards/real-suits.json, both halves read off by eye)")
    p.add_argument("--limit", type=int, default=None, help="only the first N real photos")
    p.add_argument("--turn", type=int, choices=(0, 90, 180, 270), default=0,
                   help="read the real photos turned this many degrees clockwise (a camera held another way round)")
    p.add_argument("--scale", type=float, default=1.0,
                   help="read the real photos resized by this factor, 0.25-2 (a camera further off or nearer)")
    p.add_argument("--light", type=float, default=1.0,
                   help="read the real photos with their light multiplied by this factor, 0.3-2 (a dimmer room)")
    p.add_argument("--scenes", type=int, default=20, help="held-out synthetic scenes (0: none)")
    p.add_argument("--seed", type=int, default=60606,
                   help="the synthetic scenes' seed (one no training or choice used gives an honest figure)")
    p.add_argument("--failures", action="store_true",
                   help="also list each card missed, unread or read wrong: real ones (look into the tune split "
                        "only) and synthetic ones (look into selection seeds only)")
    p.add_argument("--whole-cards", action="store_true",
                   help="also read the real cards nothing covers through their whole outlines: the readers alone")
    p.add_argument("--court-art", type=Path, default=None, metavar="DIR",
                   help="draw the synthetic scenes' random decks with the printed courts in DIR "
                        "(python -m vision.synth.court_art DIR)")
    p.add_argument("--game-decks", action="store_true",
                   help="read each synthetic Scoundrel table with that game's deck (no red courts or aces), as the "
                        "companion reads a game it referees")
    p.add_argument("--distance", type=float, default=1.0,
                   help="draw the synthetic scenes as a camera this many times further off would see them, 1-3 "
                        "(each table filling that much less of the frame)")
    p.add_argument("--angle", type=float, default=None, metavar="DEG",
                   help="draw the synthetic scenes with the camera up to DEG degrees off straight above, 0-60 "
                        "(default: about 34; the issue allows 45)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from vision.cards import predict
    from vision.evaluate import (
        check_camera,
        evaluate_real,
        evaluate_synthetic,
        lit_predictor,
        scaled_predictor,
        turned_predictor,
        whole_card_reading,
    )
    from vision.real_photos import read_suits
    from vision.synth import court_art

    result: dict[str, object] = {}
    failures: list[dict[str, object]] = []
    try:
        check_camera(args.distance, args.angle)
        if args.real is not None and args.real.is_dir():
            seen = turned_predictor(scaled_predictor(lit_predictor(predict, args.light), args.scale), args.turn)
            score = evaluate_real(args.real, seen, args.limit, args.split, read_suits(args.suits))
            result["real"] = score.to_json() | {"turn": args.turn, "scale": args.scale, "light": args.light}
            failures = score.failures
            if args.failures:
                result["failures"] = failures
            if args.whole_cards:
                result["whole_cards"] = whole_card_reading(args.real, args.split)
        else:
            result["real"] = f"skipped: {args.real} is not a folder"
        if args.scenes > 0:
            if args.court_art is not None:
                court_art.use(args.court_art)
            result["synthetic"] = evaluate_synthetic(predict, args.scenes, seed=args.seed, failures=args.failures,
                                                     court_art=args.court_art is not None,
                                                     game_decks=args.game_decks, distance=args.distance,
                                                     angle=args.angle)
    except (FileNotFoundError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(result))
        return 0
    real = result["real"]
    if isinstance(real, dict):
        seen_as = ((f", turned {args.turn} degrees" if args.turn else "")
                   + (f", scaled {args.scale:g}" if args.scale != 1.0 else "")
                   + (f", light x{args.light:g}" if args.light != 1.0 else ""))
        print(f"real photos, {args.split}{seen_as} ({real['images']} images, {real['cards']} cards): recall@IoU0.5 "
              f"{real['recall_iou50']:.2%} ({real['found_unread']} of them unread, '?'), rank accuracy "
              f"{real['rank_accuracy_of_read']:.2%} of read, {real['rank_accuracy_of_found']:.2%} of found "
              f"({real['rank_accuracy_of_all']:.2%} of all); {real['extra_cards']} extra cards")
        if real["suited_cards"]:
            print(f"  rank and suit right for {real['code_accuracy_of_suited']:.2%} of the {real['suited_cards']} "
                  "found cards whose suit is known")
    else:
        print(f"real photos: {real}")
    whole = result.get("whole_cards")
    if isinstance(whole, dict):
        print(f"cards nothing covers, read through their whole outlines ({whole['cards']} cards): rank accuracy "
              f"{whole['fused_rank_accuracy']:.2%} (the face reader alone {whole['face_rank_accuracy']:.2%})")
    for f in failures if args.failures else []:
        seen = f" (nearest reading {f['read']} at {f['confidence']}, IoU {f['iou']})" if "read" in f else ""
        print(f"  {f['kind']:7} {f['rank']:>2} in {f['image']} box {f['box']}{seen}")
    syn = result.get("synthetic")
    if isinstance(syn, dict):
        art = (", printed courts" if syn.get("court_art") else "") + (
            f", camera {syn['distance']:g} times further off" if syn["distance"] != 1.0 else "") + (
            f", camera up to {syn['angle']:g} degrees off straight above" if syn["angle"] is not None else "")
        print(f"synthetic held-out ({syn['scenes']} scenes of seed {syn['seed']}{art}, {syn['cards']} cards): "
              f"card error {syn['card_error']:.2%} "
              f"(wrong {syn['wrong_code']}, missed {syn['missed']}, extra {syn['false_positives']}); "
              f"layout exactly right {syn['layout_exact_all']:.0%} {syn['layout_exact']}")
        if syn.get("index_fonts_missing"):
            missing = syn["index_fonts_missing"]
            print(f"  note: {len(missing)} index fonts not installed ({', '.join(missing)}): the decks were drawn "
                  "with the others, so these figures compare only with runs on the same fonts (fonts-liberation "
                  "comes with Debian's chromium)")
        for f in syn.get("failures", []):
            print(_synthetic_failure(f))
    return 0


def _synthetic_failure(f: dict[str, object]) -> str:
    """One synthetic card lost, as a line: scene, layout, deck style (and its index letters), what was read where."""
    where = f"  scene {f['scene']:>3} {f['layout']:9} deck {f['style']:>3} ({f['letters']}): {f['kind']:6}"
    if f["kind"] == "extra":
        return f"{where} read {f['read']} at {f['confidence']} (nearest card {f['truth'] or '-'}, IoU {f['iou']})"
    read = f" read {f['read']}" + (f" at {f['confidence']}" if "confidence" in f else f", IoU {f['iou']}") \
        if "read" in f else ""
    return f"{where} {f['truth']} ({f['visible']:.0%} visible){read}"
