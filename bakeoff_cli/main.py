"""The commands of ``bakeoff`` (see the package's docstring)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

CONFIG_ENV = "BAKEOFF_CONFIG"
CHUNK = 1 << 16
# A run's states until it is done (docs/api-errors.md, the run's ``status``).
PENDING = {"queued", "scoring"}


class Refusal(Exception):
    """An answer of the server that is an error (``code``, ``message``), or a local failure."""

    def __init__(self, code: str, message: str, *, status: int = 1) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.exit_status = status


def config_path() -> Path:
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "bakeoff" / "config.json"


def read_config() -> dict[str, str]:
    path = config_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise Refusal("config", f"cannot read {path}: {error}", status=2) from None
    return {k: str(v) for k, v in data.items()} if isinstance(data, dict) else {}


class Client:
    """The server's API: JSON in, JSON out, the token on every request."""

    def __init__(self, url: str, token: str, *, language: str = "") -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.language = language

    @classmethod
    def configured(cls) -> Client:
        stored = read_config()
        url = os.environ.get("BAKEOFF_URL") or stored.get("url", "")
        token = os.environ.get("BAKEOFF_TOKEN") or stored.get("token", "")
        if not url:
            raise Refusal("no_server", "set BAKEOFF_URL or run 'bakeoff login'", status=2)
        if not token:
            raise Refusal("no_token", "set BAKEOFF_TOKEN or run 'bakeoff login'", status=2)
        return cls(url, token, language=os.environ.get("BAKEOFF_LANGUAGE", ""))

    def _request(
        self, method: str, path: str, body: bytes | None = None, content_type: str = ""
    ) -> urllib.request.Request:
        url = path if path.startswith(("http://", "https://")) else self.url + path
        request = urllib.request.Request(url, data=body, method=method)
        request.add_header("Authorization", f"Token {self.token}")
        request.add_header("Accept", "application/json")
        if self.language:
            request.add_header("Accept-Language", self.language)
        if content_type:
            request.add_header("Content-Type", content_type)
        return request

    def _open(self, request: urllib.request.Request) -> Any:
        try:
            return urllib.request.urlopen(request, timeout=120)
        except urllib.error.HTTPError as answer:
            raise _refusal_of(answer) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise Refusal("unreachable", f"{self.url}: {reason}", status=2) from None

    def get(self, path: str) -> Any:
        with self._open(self._request("GET", path)) as answer:
            return json.loads(answer.read().decode("utf-8"))

    def post(self, path: str, fields: dict[str, Any] | None = None) -> Any:
        body = json.dumps(fields or {}).encode("utf-8")
        with self._open(self._request("POST", path, body, "application/json")) as answer:
            return json.loads(answer.read().decode("utf-8"))

    def post_file(self, path: str, fields: dict[str, str], name: str, data: bytes) -> Any:
        boundary = uuid.uuid4().hex
        parts: list[bytes] = []
        for key, value in fields.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'
                f"{value}\r\n".encode()
            )
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{Path(name).name}"\r\nContent-Type: text/plain\r\n\r\n'.encode()
        )
        parts += [data, f"\r\n--{boundary}--\r\n".encode()]
        request = self._request(
            "POST", path, b"".join(parts), f"multipart/form-data; boundary={boundary}"
        )
        with self._open(request) as answer:
            return json.loads(answer.read().decode("utf-8"))

    def download(self, url: str, target: Path) -> tuple[int, str, str]:
        """Streams the file to ``target`` (through a temporary file), and returns its size, its
        SHA-256 and the one the server announced."""
        partial = target.with_name(target.name + ".part")
        digest = hashlib.sha256()
        size = 0
        with self._open(self._request("GET", url)) as answer, partial.open("wb") as out:
            announced = answer.headers.get("X-Checksum-SHA256", "")
            while chunk := answer.read(CHUNK):
                digest.update(chunk)
                size += len(chunk)
                out.write(chunk)
        partial.replace(target)
        return size, digest.hexdigest(), announced


def _refusal_of(answer: urllib.error.HTTPError) -> Refusal:
    try:
        body = json.loads(answer.read().decode("utf-8"))
    except (ValueError, UnicodeDecodeError, OSError):
        body = {}
    if not isinstance(body, dict):
        body = {}
    code = str(body.get("code") or f"http_{answer.code}")
    message = str(body.get("message") or body.get("detail") or answer.reason)
    return Refusal(code, message)


# -- output ----------------------------------------------------------------------------------------


def show(args: argparse.Namespace, data: Any, lines: Callable[[], Sequence[str]]) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        for line in lines():
            print(line)


def _figures(run: dict[str, Any]) -> str:
    scores = run.get("scores")
    if not isinstance(scores, dict):
        return ""
    shown = [f"{k}={scores[k]:.4f}" for k in ("precision", "recall", "f") if k in scores]
    return "  " + " ".join(shown)


def _run_line(run: dict[str, Any]) -> str:
    number = run.get("run_number")
    withdrawn = " withdrawn" if run.get("withdrawn_at") else ""
    return (
        f"{run['id']:>6}  {run['track']:<16} {run['phase']:<13} run {number or '-':<3} "
        f"{run['status']}{withdrawn}{_figures(run)}"
    )


# -- commands --------------------------------------------------------------------------------------


def cmd_login(args: argparse.Namespace) -> None:
    url = args.url or os.environ.get("BAKEOFF_URL") or input("Server URL: ").strip()
    token = args.token or os.environ.get("BAKEOFF_TOKEN") or input("Token: ").strip()
    Client(url, token).get("/api/bakeoffs/")  # a bad token or server is refused here
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"url": url, "token": token}), encoding="utf-8")
    path.chmod(0o600)
    show(args, {"url": url, "config": str(path)}, lambda: [f"Logged in to {url} ({path})."])


def cmd_bakeoffs(args: argparse.Namespace) -> None:
    listed = Client.configured().get("/api/bakeoffs/")
    show(
        args,
        listed,
        lambda: [
            f"{b['slug']:<20} {b['name']}  (deadline {b['submission_deadline']})" for b in listed
        ],
    )


def cmd_tracks(args: argparse.Namespace) -> None:
    listed = Client.configured().get(f"/api/bakeoffs/{_q(args.bakeoff)}/tracks/")
    show(
        args,
        listed,
        lambda: [f"{t['slug']:<20} {t['name']:<8} corpus {t['corpus']}" for t in listed],
    )


def cmd_register(args: argparse.Namespace) -> None:
    fields: dict[str, Any] = {"tracks": args.track}
    for name in ("name", "institution", "country", "resources_statement"):
        value = getattr(args, name)
        if value is not None:
            fields[name] = value
    if args.commercial_product:
        fields["commercial_product"] = True
    site = Client.configured().post(f"/api/bakeoffs/{_q(args.bakeoff)}/registrations/", fields)
    show(
        args,
        site,
        lambda: [
            f"Site {site['site']} ({site['name']}):",
            *(f"  {r['track']}: {r['status']}" for r in site["registrations"]),
        ],
    )


def cmd_agree(args: argparse.Namespace) -> None:
    path = f"/api/bakeoffs/{_q(args.bakeoff)}/corpora/{_q(args.corpus)}/agreement/"
    accepted = Client.configured().post(path)
    show(
        args,
        accepted,
        lambda: [
            f"Data agreement of {accepted['corpus']} accepted for "
            + ", ".join(a["site"] for a in accepted["acceptances"])
            + "."
        ],
    )


def cmd_download(args: argparse.Namespace) -> None:
    client = Client.configured()
    corpora = client.get(f"/api/bakeoffs/{_q(args.bakeoff)}/corpora/")
    corpus = next((c for c in corpora if c["abbreviation"] == args.corpus), None)
    if corpus is None:
        raise Refusal("not_found", f"no corpus {args.corpus} in {args.bakeoff}")
    target = Path(args.to)
    target.mkdir(parents=True, exist_ok=True)
    wanted = [f for f in corpus["files"] if not args.kind or f["kind"] in args.kind]
    if corpus.get("licence") and not corpus.get("licence_accepted"):
        raise Refusal(
            "licence_not_accepted",
            f"accept the data agreement first: bakeoff agree {args.bakeoff} {args.corpus}",
        )
    fetched = []
    for entry in wanted:
        if not entry["available"]:
            if args.kind:  # asked for by name: say why not
                raise Refusal(entry.get("refusal", "refused"), f"{entry['kind']} not available")
            continue
        path = target / entry["name"]
        size, sha256, announced = client.download(entry["url"], path)
        if sha256 != (announced or entry.get("sha256")):
            path.unlink()
            raise Refusal("checksum", f"{entry['name']}: the SHA-256 differs; download again")
        fetched.append({"kind": entry["kind"], "path": str(path), "size": size, "sha256": sha256})
    if not fetched:
        raise Refusal("not_released", f"no file of {args.corpus} may be downloaded yet")
    show(args, fetched, lambda: [f"{f['path']}  {f['size']} bytes  sha256 ok" for f in fetched])


def cmd_validate(args: argparse.Namespace) -> None:
    import scoring

    run, test = _read(args.run), _read(args.test_text)
    try:
        segmentation = scoring.validate_run(run, test, encoding=args.encoding)
    except scoring.ScoringError as error:
        raise Refusal("invalid_run", str(error)) from None
    words = segmentation.word_count
    show(args, {"valid": True, "words": words}, lambda: [f"{args.run}: valid ({words} words)."])


def cmd_submit(args: argparse.Namespace) -> None:
    client = Client.configured()
    fields = {"phase": args.phase}
    if args.description is not None:
        fields["description"] = args.description
    path = f"/api/bakeoffs/{_q(args.bakeoff)}/tracks/{_q(args.track)}/submissions/"
    run = client.post_file(path, fields, args.run, _read(args.run))
    if not args.json:
        print(f"Run {run['id']} received ({run['status']}).", flush=True)
    deadline = time.monotonic() + args.timeout
    while args.wait and run["status"] in PENDING:
        if time.monotonic() > deadline:
            raise Refusal("timeout", f"run {run['id']} still {run['status']}; see bakeoff runs")
        time.sleep(args.interval)
        before = run["status"]
        run = client.get(run["url"])
        if not args.json and run["status"] != before:
            print(f"  {run['status']}", flush=True)
    show(args, run, lambda: [_run_line(run)])
    if run["status"] == "failed":
        raise Refusal(run.get("reason") or "failed", f"run {run['id']} failed")


def cmd_runs(args: argparse.Namespace) -> None:
    runs = Client.configured().get(f"/api/bakeoffs/{_q(args.bakeoff)}/runs/")
    if args.track:
        runs = [r for r in runs if r["track"] == args.track]
    show(args, runs, lambda: [_run_line(r) for r in runs] or ["No runs."])


def cmd_withdraw(args: argparse.Namespace) -> None:
    path = f"/api/bakeoffs/{_q(args.bakeoff)}/tracks/{_q(args.track)}/submissions/{args.id}/"
    fields = {"reason": args.reason} if args.reason else {}
    run = Client.configured().post(path + "withdraw/", fields)
    show(args, run, lambda: [_run_line(run)])


def cmd_results(args: argparse.Namespace) -> None:
    path = f"/api/bakeoffs/{_q(args.bakeoff)}/tracks/{_q(args.track)}/results/"
    table = Client.configured().get(path)

    def lines() -> list[str]:
        version = table.get("results_version")
        head = table["name"] + (f" (results version {version})" if version else "")
        rows = []
        for row in table.get("rows", []):
            run = f" run {row['run']}" if row.get("run") else ""
            f = (row.get("score") or {}).get("f")
            figure = f"  F={f:.4f}" if isinstance(f, float) else ""
            rows.append(f"{row.get('rank') or '-':>4}  {row['site']}{run}{figure}")
        return [head, *rows]

    show(args, table, lines)


def _q(part: str) -> str:
    return urllib.parse.quote(part, safe="")


def _read(name: str) -> bytes:
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise Refusal("file", f"{name}: {error.strerror}", status=2) from None


# -- the command line ------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="bakeoff",
        description="The participants' client of a Bakeoff platform "
        "(BAKEOFF_URL, BAKEOFF_TOKEN, or 'bakeoff login').",
    )
    top.add_argument("--json", action="store_true", help="print JSON, for scripts")
    # --json after the command too; SUPPRESS, so that a subcommand does not reset it to False
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="JSON")
    commands = top.add_subparsers(dest="command", required=True)

    def add(name: str, handler: Callable[[argparse.Namespace], None], text: str) -> Any:
        command = commands.add_parser(name, help=text, description=text, parents=[common])
        command.set_defaults(handler=handler)
        return command

    login = add("login", cmd_login, "store the server's URL and your token")
    login.add_argument("--url")
    login.add_argument("--token")
    add("bakeoffs", cmd_bakeoffs, "the bakeoffs you may see")
    add("tracks", cmd_tracks, "a bakeoff's tracks").add_argument("bakeoff")
    register = add("register", cmd_register, "register a site (or your site for more tracks)")
    register.add_argument("bakeoff")
    register.add_argument("--name")
    register.add_argument("--institution")
    register.add_argument("--country")
    register.add_argument("--commercial-product", action="store_true")
    register.add_argument("--resources-statement", help="for open tracks")
    register.add_argument("--track", action="append", required=True, help="a track's slug")
    agree = add("agree", cmd_agree, "accept a corpus's data agreement for your site")
    agree.add_argument("bakeoff")
    agree.add_argument("corpus")
    download = add("download", cmd_download, "download a corpus's files, checksums checked")
    download.add_argument("bakeoff")
    download.add_argument("corpus")
    download.add_argument("--to", default=".", help="folder (default: here)")
    download.add_argument("--kind", action="append", help="only these files (test_text, ...)")
    validate = add("validate", cmd_validate, "check a run against the test text, locally")
    validate.add_argument("run")
    validate.add_argument("test_text")
    validate.add_argument("--encoding", default="utf-8")
    submit = add("submit", cmd_submit, "upload a run")
    submit.add_argument("bakeoff")
    submit.add_argument("track")
    submit.add_argument("run")
    submit.add_argument("--phase", default="test", help="test, development or post_bakeoff")
    submit.add_argument("--description")
    submit.add_argument("--wait", action="store_true", help="until scored, then the figures")
    submit.add_argument("--interval", type=float, default=2.0, help=argparse.SUPPRESS)
    submit.add_argument("--timeout", type=float, default=900.0, help="seconds to --wait")
    runs = add("runs", cmd_runs, "your runs of a bakeoff, in every phase")
    runs.add_argument("bakeoff")
    runs.add_argument("track", nargs="?")
    withdraw = add("withdraw", cmd_withdraw, "withdraw one of your runs")
    withdraw.add_argument("bakeoff")
    withdraw.add_argument("track")
    withdraw.add_argument("id", type=int)
    withdraw.add_argument("--reason")
    results = add("results", cmd_results, "a track's published results")
    results.add_argument("bakeoff")
    results.add_argument("track")
    return top


def fail(refusal: Refusal) -> NoReturn:
    print(f"bakeoff: {refusal.code}: {' '.join(refusal.message.split())}", file=sys.stderr)
    raise SystemExit(refusal.exit_status)


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        args.handler(args)
    except Refusal as refusal:
        fail(refusal)
    except KeyboardInterrupt:
        return 130
    return 0
