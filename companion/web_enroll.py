"""Dashboard pages for enrollment: show the grid to lay, take the photos, keep the profile.

`enroll_bp` is registered by the dashboard's app factory. Profiles go to the store named by the
app's `ENROLL_HOME` setting (default: `$TABLE_COMPANION_HOME/profiles` or ~/.table-companion).
Uploads may be phone photos, so these routes alone accept up to `MAX_UPLOAD_BYTES` per request.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache
from typing import Any

import cv2
import numpy as np
from flask import Blueprint, Response, current_app, jsonify, render_template_string, request, send_file, url_for

from companion.enroll_jobs import JobError, Jobs
from vision.enroll.deck import EnrollError
from vision.enroll.grids import GridError, deck_grids, tile_grid
from vision.enroll.media import MediaError, decode
from vision.enroll.progress import Progress
from vision.enroll.store import ProfileError, ProfileStore

enroll_bp = Blueprint("enroll", __name__, url_prefix="/enroll")
MAX_UPLOAD_BYTES = 80 * 1024 * 1024
MAX_FILES = 80
PLAYER_ERRORS = (EnrollError, GridError, MediaError, ProfileError)
JOBS_KEY = "enroll_jobs"  # app.extensions key of the app's background jobs


@enroll_bp.before_request
def _allow_photos() -> None:
    request.max_content_length = MAX_UPLOAD_BYTES
    request.max_form_parts = MAX_FILES + 20


@enroll_bp.errorhandler(EnrollError)
@enroll_bp.errorhandler(GridError)
@enroll_bp.errorhandler(MediaError)
@enroll_bp.errorhandler(ProfileError)
@enroll_bp.errorhandler(JobError)
def _player_error(exc: Exception) -> tuple[Response, int]:
    return jsonify(error=str(exc)), 400


def store() -> ProfileStore:
    return ProfileStore(current_app.config.get("ENROLL_HOME"))


def jobs() -> Jobs:
    """The app's enrollment jobs (made on first use)."""
    return current_app.extensions.setdefault(JOBS_KEY, Jobs(PLAYER_ERRORS))


# -- pages --------------------------------------------------------------------------------------------
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ title }} · Table Companion</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:70rem;color:#222}
nav a{margin-right:1rem} table.grid{border-collapse:separate;border-spacing:6px;background:#1d3b2a;padding:8px}
table.grid td{width:3.2rem;height:4.4rem;background:#fafaf6;text-align:center;font-weight:bold;border-radius:4px}
table.grid td.empty{background:transparent} table.grid td.back{background:#8b1d25;color:#fff}
table.tiles td{width:4.5rem;height:4.5rem;padding:0;background:#fafaf6}
table.tiles img{width:4.5rem;height:4.5rem;display:block}
.red{color:#c0142a} form{margin:1rem 0;display:grid;gap:.5rem;max-width:32rem}
#result{white-space:pre-wrap;background:#f3f3f3;padding:.6rem;min-height:1.5rem}
#result.error{background:#fde8e8;color:#8b1020;border-left:4px solid #c0142a} #job progress{width:20rem}
ol li{margin:.2rem 0}
</style></head><body>
<nav><a href="{{ url_for('enroll.index') }}">Profiles</a><a href="{{ url_for('enroll.cards_page') }}">Deck</a>
<a href="{{ url_for('enroll.tiles_page') }}">Carcassonne edition</a>
<a href="{{ url_for('enroll.strijders_page') }}">Strijders cards</a></nav>
<h1>{{ title }}</h1>{{ body|safe }}
<p id="job" hidden><progress id="progress" max="1" value="0"></progress> <span id="stage"></span></p>
<div id="result" aria-live="polite"></div>
<script>
const JOBS='{{ url_for('enroll.jobs_list') }}';
function show(text, error){const out=document.getElementById('result');
  out.textContent=text; out.className=error?'error':'';}
function summary(r){
  let t='Learned '+r.kind+' profile "'+r.name+'": '+r.labels+' labels.';
  if(r.missing&&r.missing.length)t+='\\nNot found: '+r.missing.join(', ');
  for(const n of r.notes||[])t+='\\nNote: '+n;
  return t;}
async function answer(r){
  try{return await r.json();}catch(e){return {error:'the server answered '+r.status+' '+r.statusText};}}
async function send(form, url){
  const button=form.querySelector('button'); show('Uploading…');
  let r; try{r=await fetch(url,{method:'POST',body:new FormData(form)});}
  catch(e){show('Error: the upload did not reach the companion ('+e+'); try again',true);return;}
  const j=await answer(r);
  if(!r.ok){show('Error: '+j.error,true);return;}
  if(!j.job){show(JSON.stringify(j,null,1));if(window.loadProfiles)loadProfiles();return;}
  button.disabled=true;
  try{await follow(j.job);}finally{button.disabled=false;}}
async function follow(id){
  const box=document.getElementById('job'), bar=document.getElementById('progress');
  const stage=document.getElementById('stage'); box.hidden=false; show('');
  for(;;){
    let j; try{const r=await fetch(JOBS+'/'+encodeURIComponent(id)); j=await answer(r);
      if(!r.ok){show('Error: '+j.error,true);return;}}
    catch(e){stage.textContent='the companion does not answer; still trying…';
      await new Promise(ok=>setTimeout(ok,2000));continue;}
    bar.value=j.progress; stage.textContent=j.stage;
    if(j.state==='done'){box.hidden=true;show(summary(j.result));if(window.loadProfiles)loadProfiles();return;}
    if(j.state==='failed'){box.hidden=true;
      show('Error: '+j.error+'\\nNothing was saved; your photos are still chosen above: fix and send again.',true);
      return;}
    await new Promise(ok=>setTimeout(ok,400));}}
(async()=>{try{const jobs=await (await fetch(JOBS)).json();  // a job started before a reload
  const active=jobs.find(j=>j.state==='queued'||j.state==='running'); if(active)follow(active.id);}catch(e){}})();
</script></body></html>"""

INDEX = """<p>What the companion has learned: decks, tile editions and Strijders cards. Choose one when you
start a game; export it to take it to another computer.</p>
<table id="profiles" border="1" cellpadding="4"><thead><tr><th>name</th><th>kind</th><th>labels</th>
<th>created</th><th></th></tr></thead><tbody></tbody></table>
<h2>Import a profile</h2>
<form onsubmit="send(this,'{{ url_for('enroll.import_profile') }}');return false">
<input type="file" name="file" accept=".zip" required><input name="name" placeholder="new name (optional)">
<label><input type="checkbox" name="force" value="1"> replace a profile of that name</label>
<button>Import</button></form>
<script>
async function loadProfiles(){
 const rows=await (await fetch('{{ url_for('enroll.profiles') }}')).json();
 const body=document.querySelector('#profiles tbody'); body.innerHTML='';
 for(const p of rows){const tr=document.createElement('tr');
  for(const k of ['name','kind','labels','created']){
   const td=document.createElement('td');td.textContent=p[k];tr.append(td);}
  const td=document.createElement('td'); const a=document.createElement('a');
  a.href='{{ url_for('enroll.index') }}/api/profiles/'+encodeURIComponent(p.name)+'/export';a.textContent='export';
  const b=document.createElement('button');b.textContent='remove';
  b.onclick=async()=>{if(confirm('Remove '+p.name+'?')){await fetch('{{ url_for('enroll.index') }}/api/profiles/'
   +encodeURIComponent(p.name)+'/remove',{method:'POST'});loadProfiles();}};
  td.append(a,' ',b);tr.append(td);body.append(tr);}
}
loadProfiles();
</script>"""

CARDS = """<ol><li>Spread a plain cloth of a dark colour (the cards must stand out) and lay the 52 cards face up,
upright, a finger apart, in this grid: one row per suit, ace to king; the last row holds a back of
each deck, starting at the left.</li>
<li>Photograph the whole grid from above (or in two photos: the top two rows with the backs row, then
the other two with the backs row; or film a short slow pan over it).</li></ol>
<table class="grid">{% for row in grid %}<tr>{% for label in row %}
{% if label is none %}<td class="empty"></td>{% elif label.startswith('back') %}<td class="back">back</td>
{% else %}<td class="{{ 'red' if label[-1] in 'HD' else '' }}">{{ label[:-1] }}{{ suits[label[-1]] }}</td>
{% endif %}{% endfor %}</tr>{% endfor %}</table>
<form onsubmit="send(this,'{{ url_for('enroll.enroll_cards') }}');return false">
<input name="name" placeholder="profile name, e.g. grandmas-deck" required pattern="[A-Za-z0-9][A-Za-z0-9_.-]*">
<label>backs (decks) <input name="backs" type="number" min="1" max="4" value="1"></label>
<label>grid <select name="grid"><option value="one">whole deck, one photo</option>
<option value="two">two photos</option><option value="video">a short video</option></select></label>
<input type="file" name="photo" accept="image/*,video/*" multiple required>
<label><input type="checkbox" name="allow_missing" value="1"> keep it even if some cards are not found</label>
<label><input type="checkbox" name="force" value="1"> replace a profile of that name</label>
<button>Learn this deck</button></form>"""

TILES = """<ol><li>On a plain cloth that differs from the tiles, lay one tile of each letter, a finger apart,
in this order, each turned exactly as shown; leave the bottom-right place empty.</li>
<li>Photograph the whole grid from above.</li></ol>
<table class="grid tiles">{% for row in grid %}<tr>{% for letter in row %}
{% if letter is none %}<td class="empty"></td>{% else %}<td title="{{ letter }}">
<img alt="{{ letter }}" src="{{ url_for('enroll.tile_image', letter=letter) }}"></td>{% endif %}
{% endfor %}</tr>{% endfor %}</table>
<form onsubmit="send(this,'{{ url_for('enroll.enroll_tiles') }}');return false">
<input name="name" placeholder="edition name, e.g. carcassonne-2015" required>
<input type="file" name="photo" accept="image/*" multiple required>
<label><input type="checkbox" name="allow_missing" value="1"> keep it even if some tiles are not found</label>
<label><input type="checkbox" name="force" value="1"> replace a profile of that name</label>
<button>Learn this edition</button></form>"""

STRIJDERS = """<ol><li>Photograph each card of your catalog once: alone on a plain cloth, upright, filling much of
the picture.</li><li>Name each photo by the card's id in the catalog (<code>heks.jpg</code>,
<code>ridder.png</code>), choose them all below, and add the catalog file to check the ids.</li></ol>
<form onsubmit="send(this,'{{ url_for('enroll.enroll_strijders') }}');return false">
<input name="name" placeholder="profile name, e.g. our-strijders" required>
<label>catalog (optional) <input type="file" name="catalog" accept=".json,.csv"></label>
<input type="file" name="photo" accept="image/*" multiple required>
<label><input type="checkbox" name="force" value="1"> replace a profile of that name</label>
<button>Learn these cards</button></form>"""


def _page(title: str, body: str, **context: Any) -> str:
    return render_template_string(PAGE, title=title, body=render_template_string(body, **context))


@enroll_bp.get("")
def index() -> str:
    return _page("Enrolled profiles", INDEX)


@enroll_bp.get("/cards")
def cards_page() -> str:
    backs = min(4, max(1, request.args.get("backs", 1, type=int) or 1))
    return _page("Teach a deck", CARDS, grid=deck_grids(backs)["one"], suits={"S": "♠", "H": "♥", "D": "♦", "C": "♣"})


@enroll_bp.get("/tiles")
def tiles_page() -> str:
    return _page("Teach a Carcassonne edition", TILES, grid=tile_grid())


@enroll_bp.get("/strijders")
def strijders_page() -> str:
    return _page("Teach the Strijders cards", STRIJDERS)


@enroll_bp.get("/tile/<letter>.png")
def tile_image(letter: str) -> Response:
    png = _tile_png(letter.upper())
    if png is None:
        return jsonify(error=f"no tile {letter!r}"), 404  # type: ignore[return-value]
    return Response(png, mimetype="image/png", headers={"Cache-Control": "max-age=86400"})


@cache
def _tile_png(letter: str) -> bytes | None:
    """The tile as the grid wants it laid (rotation 0), drawn in the project's classic style."""
    from vision.tiles.catalog import TILES
    from vision.tiles.render import render_tile
    from vision.tiles.styles import STYLES

    if letter not in TILES:
        return None
    img = render_tile(letter, 0, STYLES["classic"], 96, np.random.default_rng(ord(letter)))
    return cv2.imencode(".png", img)[1].tobytes()


# -- API ------------------------------------------------------------------------------------------------
@enroll_bp.get("/api/profiles")
def profiles() -> Response:
    return jsonify(store().summaries())


@enroll_bp.get("/api/profiles/<name>/export")
def export_profile(name: str) -> Response:
    data = store().export_zip(name)
    return send_file(io.BytesIO(data), mimetype="application/zip", as_attachment=True, download_name=f"{name}.zip")


@enroll_bp.get("/api/profiles/<name>/preview.png")
def preview(name: str) -> Response:
    profile = store().load(name)
    img = profile.images.get("preview")
    if img is None:
        return jsonify(error="this profile has no preview"), 404  # type: ignore[return-value]
    return Response(cv2.imencode(".png", img)[1].tobytes(), mimetype="image/png")


@enroll_bp.post("/api/profiles/<name>/remove")
def remove_profile(name: str) -> Response:
    store().remove(name)
    return jsonify(removed=name)


@enroll_bp.post("/api/import")
def import_profile() -> Response:
    upload = request.files.get("file")
    if upload is None:
        return jsonify(error="choose the profile's .zip file"), 400  # type: ignore[return-value]
    name = store().import_zip(upload.read(), request.form.get("name") or None, overwrite=_flag("force"))
    return jsonify(imported=name)


@enroll_bp.post("/api/cards")
def enroll_cards() -> tuple[Response, int]:
    from vision.enroll import deck

    backs = _int_field("backs", 1, 1, 4)
    grid = request.form.get("grid", "one")
    uploads = _uploads("photo")
    name, allow_missing = _name(), _flag("allow_missing")
    if grid == "video":
        frames = _video_frames(uploads)
        return _enrolled("cards", name, lambda p: deck.enroll_video(name, frames, backs, allow_missing, progress=p))
    if grid not in ("one", "two"):
        raise EnrollError("grid must be one, two or video")
    photos = [decode(data, filename) for filename, data in uploads]
    if grid == "two" and len(photos) != 2:
        raise EnrollError("the two-photo grid needs two photos: spades and hearts first, then diamonds and clubs")
    if len(photos) > 2:
        raise EnrollError("one or two photos (or a video)")
    layouts = ["two-a", "two-b"] if grid == "two" else ["one"] * len(photos)
    laid = list(zip(photos, layouts, strict=True))
    return _enrolled("cards", name, lambda p: deck.enroll_photos(name, laid, backs, allow_missing, progress=p))


@enroll_bp.post("/api/tiles")
def enroll_tiles() -> tuple[Response, int]:
    from vision.enroll import edition

    name, allow_missing = _name(), _flag("allow_missing")
    photos = [decode(data, filename) for filename, data in _uploads("photo")]
    return _enrolled("tiles", name, lambda p: edition.enroll_edition(name, photos, allow_missing, progress=p))


@enroll_bp.post("/api/strijders")
def enroll_strijders() -> tuple[Response, int]:
    from vision.enroll import strijders

    name, ids = _name(), _catalog_ids()
    shots = [(_stem(filename), decode(data, filename)) for filename, data in _uploads("photo")]
    return _enrolled("strijders", name, lambda p: strijders.enroll_catalog(name, shots, ids, progress=p))


@enroll_bp.get("/api/jobs")
def jobs_list() -> Response:
    """Every enrollment job this dashboard remembers, oldest first."""
    return jsonify([j.status() for j in jobs().all()])


@enroll_bp.get("/api/jobs/<job_id>")
def job_status(job_id: str) -> Response | tuple[Response, int]:
    """What the page polls: state (queued, running, done, failed), stage, progress 0..1, result or error."""
    try:
        return jsonify(jobs().get(job_id).status())
    except JobError as exc:
        return jsonify(error=str(exc)), 404


# -- helpers ------------------------------------------------------------------------------------------
def _name() -> str:
    from vision.enroll.store import check_name

    name = check_name(request.form.get("name", ""))
    if store().exists(name) and not _flag("force"):
        raise ProfileError(f"a profile named {name!r} exists; tick 'replace' to overwrite it")
    return name


def _flag(field: str) -> bool:
    return request.form.get(field, "") in ("1", "on", "true", "yes")


def _int_field(field: str, default: int, low: int, high: int) -> int:
    try:
        value = int(request.form.get(field, default))
    except ValueError:
        raise EnrollError(f"{field} must be a whole number") from None
    if not low <= value <= high:
        raise EnrollError(f"{field} must be {low} to {high}")
    return value


def _uploads(field: str) -> list[tuple[str, bytes]]:
    files = [f for f in request.files.getlist(field) if f.filename]
    if not files:
        raise EnrollError("choose at least one photo")
    if len(files) > MAX_FILES:
        raise EnrollError(f"at most {MAX_FILES} files at once")
    return [(f.filename or "upload", f.read()) for f in files]


def _stem(filename: str) -> str:
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


def _video_frames(uploads: list[tuple[str, bytes]]) -> list[np.ndarray]:
    import tempfile
    from pathlib import Path

    from vision.enroll.media import read_video

    if len(uploads) != 1:
        raise EnrollError("give one video")
    name, data = uploads[0]
    suffix = Path(name).suffix[:8] or ".mp4"
    with tempfile.NamedTemporaryFile(suffix=suffix) as tmp:  # OpenCV reads videos from files only
        tmp.write(data)
        tmp.flush()
        return read_video(tmp.name)


def _catalog_ids() -> list[str] | None:
    import json

    from engine.game import RecordError
    from engine.strijders.catalog import read_catalog

    upload = request.files.get("catalog")
    if upload is None or not upload.filename:
        return None
    try:
        text = upload.read().decode("utf-8")
        data: Any = {"csv": text} if upload.filename.lower().endswith(".csv") else json.loads(text)
        return [c.id for c in read_catalog(data, "catalog").cards]
    except (UnicodeDecodeError, json.JSONDecodeError, RecordError) as exc:
        raise EnrollError(f"catalog: {exc}") from None


def _enrolled(kind: str, name: str, work: Callable[[Progress], tuple[Any, list[str]]]) -> tuple[Response, int]:
    """Start the enrollment as a background job; 202 with the job's id and where to poll it."""
    target = store()  # the request's app config, read now: the job runs outside the request

    def run(progress: Progress) -> dict[str, Any]:
        profile, notes = work(progress.part(0.0, 0.95))
        progress("saving the profile", 0.96)
        target.save(profile, overwrite=True)  # written whole or not at all: a failure keeps the old profile
        return {"name": profile.name, "kind": profile.kind, "labels": len(profile.labels),
                "missing": profile.manifest.get("missing", []), "notes": notes}

    job = jobs().submit(kind, name, run)
    url = url_for("enroll.job_status", job_id=job.id)
    return jsonify(job=job.id, status_url=url, state=job.state), 202
