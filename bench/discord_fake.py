"""Drive the real bot without Discord: Discord-shaped payloads in, a recorder at the HTTP edge.

Used by the tests (through ``tests.harness``) and by ``bench/load.py``.

Interactions are built from payloads shaped like Discord's gateway events and fed
to discord.py's own ``ConnectionState.parse_interaction_create``, so the real
``CommandTree``, option transformers, autocomplete and ``DynamicItem`` dispatch
run.  The two places where discord.py would touch the network
(``HTTPClient.request`` for bot REST calls and ``AsyncWebhookAdapter.request``
for interaction responses and follow-ups) are replaced by a :class:`Recorder`
that answers like Discord and keeps every call.

The recorder also keeps what Discord itself would keep: which messages exist
(:attr:`Recorder.created`), each interaction's original response (loading while
deferred, completed by the first follow-up or an edit), and the nonces of channel
messages (a repeated nonce with ``enforce_nonce`` returns the first message, as
Discord does).  :meth:`Recorder.fail` injects the errors Discord really answers on
any kind of call: 403 with codes 50013 and 50001, 404 with 10062 and 10003, 429
with and without ``Via`` and ``Retry-After``, 5xx, and timeouts, optionally after
the request took effect (an unknown outcome).  The errors are raised as
discord.py's own ``request`` raises them once its built-in handling gave up.

Every request is first held against Discord's published limits (:mod:`bot.limits`): one that
crosses any is refused as Discord refuses it (HTTP 400, code 50035 "Invalid Form Body", the
offending fields named) and kept in :attr:`Recorder.refused`, which the tests' ``world``
fixture requires to be empty at the end of every test.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

from bot import limits

if TYPE_CHECKING:
    from discord.types.gateway import InteractionCreateEvent, ThreadDeleteEvent, ThreadUpdateEvent

APP_ID = 900000000000000001
BOT_USER_ID = 900000000000000001
GUILD_ID = 800000000000000001
ADMIN_PERMISSIONS = str(discord.Permissions.all().value)
MEMBER_PERMISSIONS = str(discord.Permissions(send_messages=True, use_application_commands=True).value)

_snowflakes = itertools.count(1_000_000_000_000_000_000)


def snowflake() -> int:
    """Return a fresh, increasing snowflake."""
    return next(_snowflakes)


@dataclass
class Failure:
    """One error Discord answers: ``status`` 0 is a timeout (no answer at all)."""

    status: int
    code: int = 0
    via: bool = True  # a 429 from Discord's API carries Via; Cloudflare's does not
    retry_after: float | None = None  # the Retry-After header, if any
    landed: bool = False  # the request took effect before the error (its outcome is unknown to the bot)
    errors: dict[str, Any] | None = None  # a 400's ``errors`` (which fields of the request Discord refused, and why)

    def raise_it(self) -> None:
        if self.status == 0:
            raise TimeoutError("the request timed out")
        headers: dict[str, str] = {}
        if self.via:
            headers["Via"] = "1.1 google"
        if self.retry_after is not None:
            headers["Retry-After"] = f"{self.retry_after:g}"
        response = _FakeResponse(self.status, headers)
        if self.status == 429 and not self.via:
            raise discord.HTTPException(response, "<html>error code: 1015</html>")  # Cloudflare's page, no JSON
        data: dict[str, Any] = {"code": self.code, "message": MESSAGES.get(self.code, "error")}
        if self.errors is not None:
            data["errors"] = self.errors
        if self.status == 429:
            data["retry_after"] = self.retry_after or 1.0
            raise discord.HTTPException(response, data)
        if self.status == 403:
            raise discord.Forbidden(response, data)
        if self.status == 404:
            raise discord.NotFound(response, data)
        if self.status >= 500:
            raise discord.DiscordServerError(response, data)
        raise discord.HTTPException(response, data)


MESSAGES = {
    50013: "Missing Permissions",
    50001: "Missing Access",
    10062: "Unknown interaction",
    10003: "Unknown Channel",
    10008: "Unknown Message",
    10015: "Unknown Webhook",
    160004: "A thread has already been created for this message",
    50083: "Thread is archived",
    40060: "Interaction has already been acknowledged.",
    limits.INVALID_FORM_BODY: "Invalid Form Body",
}
MISSING_PERMISSIONS = Failure(403, 50013)
MISSING_ACCESS = Failure(403, 50001)
UNKNOWN_INTERACTION = Failure(404, 10062)
UNKNOWN_CHANNEL = Failure(404, 10003)
THREAD_ARCHIVED = Failure(400, 50083)
ALREADY_ACKNOWLEDGED = Failure(400, 40060)
SERVER_ERROR = Failure(500)
TIMEOUT = Failure(0)


@dataclass
class Call:
    """One request the bot made: method, path, JSON payload, attached files."""

    method: str
    path: str
    payload: dict[str, Any] | list[Any] | None
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """Name the call the way a test thinks of it."""
        if self.path.endswith("/callback"):
            response_type: int = (self.payload or {}).get("type")  # type: ignore[union-attr, assignment]
            return {4: "reply", 5: "defer", 6: "defer-update", 7: "edit", 8: "autocomplete"}.get(
                response_type, "callback"
            )
        if self.path.startswith("/webhooks/") and self.method == "POST":
            return "followup"
        if "/messages/@original" in self.path:
            return "original" if self.method == "GET" else "edit-original"
        if re.match(r"^/channels/\d+/messages/\d+/threads$", self.path) and self.method == "POST":
            return "thread"
        if re.match(r"^/channels/\d+$", self.path) and self.method == "PATCH":
            return "edit-channel"
        if re.match(r"^/guilds/\d+/members/\d+$", self.path) and self.method == "GET":
            return "member"
        if self.path.startswith("/channels/") and self.method == "PATCH":
            return "edit-message"
        if re.match(r"^/channels/\d+/messages$", self.path) and self.method == "POST":
            return "message"
        if "/commands" in self.path:
            return "sync"
        return f"{self.method} {self.path}"

    @property
    def data(self) -> dict[str, Any]:
        """The message part of the payload (interaction callbacks wrap it in ``data``)."""
        payload = self.payload if isinstance(self.payload, dict) else {}
        inner = payload.get("data") if self.path.endswith("/callback") else payload
        return inner or {}

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & 64)

    @property
    def choices(self) -> list[str]:
        return [choice["value"] for choice in self.data.get("choices", [])]

    @property
    def board(self) -> bytes | None:
        """The board image attached, if any."""
        return self.files.get("board.png")

    @property
    def descriptions(self) -> dict[str, str | None]:
        """Each attached file's description (its alt text), by file name; ``None`` when it has none."""
        return {a.get("filename", ""): a.get("description") for a in self.data.get("attachments") or []}

    @property
    def menus(self) -> dict[str, list[tuple[str, str]]]:
        """Each menu's custom ID and its options, as (label, value)."""
        found = {}
        for row in self.data.get("components") or []:
            for item in row.get("components", []):
                if item.get("type") == 3:
                    found[item["custom_id"]] = [(o["label"], o["value"]) for o in item.get("options", [])]
        return found

    @property
    def custom_ids(self) -> list[str]:
        found = []
        for row in self.data.get("components") or []:
            for item in row.get("components", []):
                if "custom_id" in item:
                    found.append(item["custom_id"])
        return found


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


def member_payload(user_id: int, name: str, *, permissions: str, bot: bool = False) -> dict[str, Any]:
    return {
        "user": user_payload(user_id, name, bot=bot),
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": permissions,
    }


def message_payload(message_id: int, channel_id: int, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "guild_id": str(GUILD_ID),
        "author": user_payload(BOT_USER_ID, "Tabula", bot=True),
        "content": data.get("content") or "",
        "timestamp": "2026-11-30T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": data.get("embeds") or [],
        "pinned": False,
        "type": 0,
        "flags": data.get("flags", 0),
        "components": data.get("components") or [],
    }


class Recorder:
    """Stands in for Discord's HTTP API: records every request and answers like Discord."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.fail_next: int = 0  # make the next N requests fail with a 503, for failure tests
        self.created: list[Call] = []  # every message that exists: replies, follow-ups, channel messages
        self._failures: list[tuple[str, Failure, list[int]]] = []
        self._originals: dict[str, dict[str, Any]] = {}  # interaction token -> its original response
        self._nonces: dict[tuple[int, str], dict[str, Any]] = {}
        self._tokens: dict[str, int] = {}  # interaction token -> channel
        self._pressed: dict[str, int] = {}  # a component interaction's token -> the message it was on
        self.keep_state = True  # the load benchmark keeps nothing
        self.threads: dict[int, dict[str, Any]] = {}  # thread ID -> {"parent", "name", "archived", "locked"}
        self.deleted: set[int] = set()  # channels and threads deleted (every request there answers 10003)
        self._acknowledged: set[int] = set()  # interactions answered (a second answer is refused: 40060)
        self.departed: set[int] = set()  # people who left the server (asking for them as members answers 10007)
        self.refused: list[tuple[Call, list[str]]] = []  # requests outside Discord's limits, with the reasons

    def clear(self) -> None:
        self.calls.clear()
        self.created.clear()

    def fail(self, kind: str, failure: Failure, times: int = 1) -> None:
        """Answer the next ``times`` calls of ``kind`` (see :attr:`Call.kind`) with ``failure``."""
        self._failures.append((kind, failure, [times]))

    def heal(self) -> None:
        """Stop every injected failure: Discord has recovered."""
        self._failures.clear()

    def boards(self, channel: int | None = None) -> list[Call]:
        """The messages with a board that exist (in ``channel``, if given), in the order they were made."""
        return [c for c in self.created if c.board is not None and (channel is None or self.channel_of(c) == channel)]

    def channel_of(self, call: Call) -> int | None:
        """The channel a message was posted in."""
        match = re.match(r"^/channels/(\d+)/", call.path)
        if match:
            return int(match[1])
        parts = call.path.split("/")
        return self._tokens.get(parts[3]) if len(parts) > 3 else None

    def remember_token(self, token: str, channel: int) -> None:
        if self.keep_state:
            self._tokens[token] = channel

    def remember_pressed(self, token: str, message_id: int) -> None:
        """Note the message a component interaction came from (its token edits that message)."""
        if self.keep_state:
            self._pressed[token] = message_id

    def _failure_for(self, kind: str) -> Failure | None:
        for wanted, failure, left in self._failures:
            if wanted == kind and left[0] > 0:
                left[0] -= 1
                return failure
        return None

    def in_thread(self, thread_id: int) -> list[Call]:
        """The messages that exist in a thread, in order."""
        return [c for c in self.created if self.channel_of(c) == thread_id]

    def thread_payload(self, thread_id: int) -> dict[str, Any]:
        """A thread as Discord describes it (in an interaction's ``channel`` or a REST answer)."""
        thread = self.threads[thread_id]
        return {
            "id": str(thread_id),
            "guild_id": str(GUILD_ID),
            "parent_id": str(thread["parent"]),
            "owner_id": str(BOT_USER_ID),
            "name": thread["name"],
            "type": 11,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": thread["archived"],
                "auto_archive_duration": 10080,
                "archive_timestamp": "2026-11-30T00:00:00+00:00",
                "locked": bool(thread.get("locked")),
            },
        }

    def _thread(self, path: str, body: Any) -> Any:
        """Open a thread from a message: its ID is the message's; a second one is refused, as Discord does."""
        parts = path.split("/")
        parent, message_id = int(parts[2]), int(parts[4])
        if message_id in self.threads:
            raise discord.HTTPException(_FakeResponse(400), {"code": 160004, "message": MESSAGES[160004]})
        self.threads[message_id] = {
            "parent": parent,
            "name": (body or {}).get("name", ""),
            "archived": False,
            "locked": False,
        }
        return self.thread_payload(message_id)

    def of_kind(self, *kinds: str) -> list[Call]:
        return [call for call in self.calls if call.kind in kinds]

    @staticmethod
    def _decode(payload: Any, multipart: Any, files: Any, form: Any) -> tuple[Any, dict[str, bytes]]:
        body = payload
        attached: dict[str, bytes] = {}
        for part in multipart or form or []:
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        for file in files or []:
            file.reset()
            attached[file.filename] = file.fp.read()
        return body, attached

    def _answer(self, call: Call) -> Any:
        """Answer one call as Discord would: maybe with an injected failure, before or after taking effect."""
        problems = limit_problems(call) if self.keep_state else []  # the load benchmarks keep nothing
        if problems:
            self.refused.append((call, problems))
            errors = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": problem} for problem in problems]}
            data = {"code": limits.INVALID_FORM_BODY, "message": MESSAGES[limits.INVALID_FORM_BODY], "errors": errors}
            raise discord.HTTPException(_FakeResponse(400), data)
        failure = self._failure_for(call.kind)
        if failure is not None and not failure.landed:
            failure.raise_it()
        result = self._respond(call.method, call.path, call.payload, call)
        if failure is not None:
            failure.raise_it()
        return result

    def _refuse_by_place(self, method: str, path: str, token: str) -> None:
        """Answer as Discord does where a channel is gone or a thread archived (or locked, by a moderator)."""
        if token:  # an interaction's answers go to the channel it came from
            place = self._tokens.get(token)
            thread = self.threads.get(place or 0)
            if thread is not None and thread.get("locked") and method == "POST":
                Failure(400, 50083).raise_it()
            return
        match = re.match(r"^/channels/(\d+)(/messages)?", path)
        if match is None:
            return
        place = int(match[1])
        if place in self.deleted:
            Failure(404, 10003).raise_it()
        thread = self.threads.get(place)
        if thread is None:
            return
        if match[2] and method == "POST" and thread["archived"]:
            Failure(400, 50083).raise_it()  # Discord refuses the post instead of unarchiving
        if not match[2] and method == "PATCH" and thread.get("locked"):
            Failure(403, 50013).raise_it()  # only a moderator (Manage Threads) reopens a locked thread

    def _respond(self, method: str, path: str, body: Any, call: Call | None = None) -> Any:
        if self.fail_next:
            self.fail_next -= 1
            raise discord.DiscordServerError(_FakeResponse(503), {"message": "Service Unavailable", "code": 0})
        token = path.split("/")[3] if path.startswith(("/interactions/", "/webhooks/")) and path.count("/") >= 3 else ""
        if self.keep_state:
            self._refuse_by_place(method, path, token)
        if path.endswith("/messages/@original"):
            original = self._originals.get(token)
            if original is None and not self.keep_state:  # the load benchmark keeps nothing: any original exists
                return message_payload(snowflake(), self._tokens.get(token, 0), body or {})
            if original is None:
                raise discord.NotFound(_FakeResponse(404), {"code": 10015, "message": "Unknown Webhook"})
            if method == "PATCH":
                original.update(loading=False, content=(body or {}).get("content", original["content"]))
            flags = 128 if original["loading"] else 0
            data = {"content": original["content"], "flags": flags}
            return message_payload(original["id"], self._tokens.get(token, 0), data)
        if path.endswith("/callback"):
            response_type = body.get("type")
            interaction_id = int(path.split("/")[2])
            if interaction_id in self._acknowledged:
                Failure(400, 40060).raise_it()  # a doubled delivery: the first answer stands
            if self.keep_state and response_type != 8:
                self._acknowledged.add(interaction_id)
            data = body.get("data") or {}
            result: dict[str, Any] = {
                "interaction": {
                    "id": str(interaction_id),
                    "type": 2,
                    "response_message_loading": response_type == 5,
                    "response_message_ephemeral": bool(data.get("flags", 0) & 64),
                }
            }
            if response_type in (4, 5, 7):
                message_id = snowflake()
                result["interaction"]["response_message_id"] = str(message_id)
                result["resource"] = {"type": response_type, "message": message_payload(message_id, 0, data)}
                if response_type in (4, 5) and self.keep_state:
                    token = path.split("/")[3]
                    content = data.get("content") or ""
                    self._originals[token] = {"id": message_id, "loading": response_type == 5, "content": content}
                    if response_type == 4 and call is not None:
                        self.created.append(call)
            if response_type in (6, 7) and self.keep_state:
                # A component's message is the interaction's original: it may be edited later with its token.
                token = path.split("/")[3]
                pressed = self._pressed.get(token)
                if pressed is not None:
                    content = data.get("content") or ""
                    self._originals[token] = {"id": pressed, "loading": False, "content": content}
            return result
        member = re.match(r"^/guilds/(\d+)/members/(\d+)$", path)
        if member and method == "GET":
            if int(member[2]) in self.departed:
                raise discord.NotFound(_FakeResponse(404), {"code": 10007, "message": "Unknown Member"})
            joined = "2026-01-01T00:00:00+00:00"
            return {"user": user_payload(int(member[2]), "member"), "roles": [], "joined_at": joined}
        match = re.match(r"^/channels/(\d+)/messages/(\d+)$", path)
        if match:
            return message_payload(int(match[2]), int(match[1]), body or {})
        if path.startswith("/webhooks/"):
            original = self._originals.get(token)
            if original is not None and original["loading"]:  # the first follow-up completes "thinking…"
                original.update(loading=False, content=(body or {}).get("content") or "")
                message_id = original["id"]
            else:
                message_id = snowflake()
            if call is not None:
                self.created.append(call)
            return message_payload(message_id, self._tokens.get(token, 0), body or {})
        if re.match(r"^/channels/\d+/messages/\d+/threads$", path) and method == "POST":
            return self._thread(path, body)
        if re.match(r"^/channels/\d+$", path) and method == "PATCH":
            thread_id = int(path.split("/")[2])
            if thread_id in self.threads and "archived" in (body or {}):
                self.threads[thread_id]["archived"] = bool(body["archived"])
                return self.thread_payload(thread_id)
            return {"id": str(thread_id), "type": 0, "guild_id": str(GUILD_ID), "name": "channel", "position": 0}
        if path.endswith("/commands") and method == "PUT":
            return [{**cmd, "id": str(snowflake()), "application_id": str(APP_ID), "version": "1"} for cmd in body]
        if path.startswith("/channels/") and method == "POST":
            channel = int(path.split("/")[2])
            nonce = (body or {}).get("nonce")
            if nonce is not None and (body or {}).get("enforce_nonce"):
                seen = self._nonces.get((channel, str(nonce)))
                if seen is not None:
                    return seen  # Discord keeps the first message with this nonce
            message = message_payload(snowflake(), channel, body or {})
            if nonce is not None and self.keep_state:
                self._nonces[(channel, str(nonce))] = message
            if call is not None:
                self.created.append(call)
            return message
        return {}

    async def webhook_request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        body, files = self._decode(kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files"), None)
        call = Call(route.method, route.path_for_recording, body, files)
        self.calls.append(call)
        return self._answer(call)

    async def http_request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        body, attached = self._decode(kwargs.get("json"), None, files, form)
        call = Call(route.method, route.path_for_recording, body, attached)
        self.calls.append(call)
        return self._answer(call)


def limit_problems(call: Call) -> list[str]:
    """Every reason Discord would refuse ``call`` for crossing one of its published limits (empty: none)."""
    body = call.payload
    kind = call.kind
    if kind == "sync":
        return limits.commands_problems(body) if isinstance(body, list) else []
    if not isinstance(body, dict):
        return []
    if kind == "autocomplete":
        return limits.autocomplete_problems(call.data.get("choices") or [])
    if kind in ("reply", "edit", "followup", "edit-original", "edit-message", "message"):
        return limits.message_problems(call.data, call.files)
    if kind in ("thread", "edit-channel") and "name" in body:
        problem = limits.channel_name_problem(body["name"])
        return [problem] if problem else []
    return []


class _FakeResponse:
    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = {403: "Forbidden", 404: "Not Found", 429: "Too Many Requests"}.get(status, "Server Error")
        self.headers = headers or {}


def _route_path(route: discord.http.Route) -> str:
    return route.url.split("/api/v10", 1)[-1].split("?", 1)[0]


discord.http.Route.path_for_recording = property(_route_path)  # type: ignore[attr-defined]


def install(monkeypatch: Any, recorder: Recorder) -> None:
    """Replace discord.py's two network edges with ``recorder``."""

    async def http_request(self: HTTPClient, route: Any, **kwargs: Any) -> Any:
        return await recorder.http_request(route, **kwargs)

    async def webhook_request(self: AsyncWebhookAdapter, route: Any, session: Any, **kwargs: Any) -> Any:
        return await recorder.webhook_request(route, session, **kwargs)

    monkeypatch.setattr(HTTPClient, "request", http_request)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook_request)


@dataclass(frozen=True)
class Person:
    """A server member who can press things."""

    id: int
    name: str
    bot: bool = False
    admin: bool = False
    locale: str = "en-US"  # the language of their Discord client

    @property
    def permissions(self) -> str:
        return ADMIN_PERMISSIONS if self.admin else MEMBER_PERMISSIONS


def option(name: str, value: Any, *, kind: int = 3, focused: bool = False) -> dict[str, Any]:
    """A slash-command option as Discord sends it (type 3 string, 4 integer, 6 user)."""
    data = {"name": name, "type": kind, "value": value}
    if focused:
        data["focused"] = True
    return data


class Discord:
    """A fake Discord that sends interactions from people in channels to one bot."""

    def __init__(self, bot: discord.Client, recorder: Recorder) -> None:
        self.bot = bot
        self.recorder = recorder
        self.app_permissions = ADMIN_PERMISSIONS  # what the bot may do in the channel, as Discord tells it
        self.guild_locale = "en-US"  # the server's Discord language

    def _base(self, person: Person, channel_id: int, kind: int) -> dict[str, Any]:
        token = f"token-{snowflake()}"
        self.recorder.remember_token(token, channel_id)
        channel = self.channel_payload(channel_id)  # a thread Tabula opened, or a text channel
        return {
            "id": str(snowflake()),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": channel,
            "member": member_payload(person.id, person.name, permissions=person.permissions, bot=person.bot),
            "app_permissions": self.app_permissions,
            "locale": person.locale,
            "guild_locale": self.guild_locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def command_payload(
        self,
        person: Person,
        channel_id: int,
        group: str,
        sub: str,
        options: list[dict[str, Any]] | None = None,
        *,
        users: list[Person] = (),  # type: ignore[assignment]
        autocomplete: bool = False,
    ) -> dict[str, Any]:
        payload = self._base(person, channel_id, 4 if autocomplete else 2)
        data: dict[str, Any] = {
            "id": str(APP_ID + 7),
            "name": group,
            "type": 1,
            # A top-level command (sub == "") carries its options directly.
            "options": [{"name": sub, "type": 1, "options": options or []}] if sub else (options or []),
        }
        if users:
            data["resolved"] = {
                "users": {str(u.id): user_payload(u.id, u.name, bot=u.bot) for u in users},
                "members": {
                    str(u.id): {k: v for k, v in member_payload(u.id, u.name, permissions="0").items() if k != "user"}
                    for u in users
                },
            }
        payload["data"] = data
        return payload

    def button_payload(self, person: Person, channel_id: int, custom_id: str, message_id: int) -> dict[str, Any]:
        payload = self._base(person, channel_id, 3)
        # The message carries the button that was pressed, as Discord sends it.
        button = {"type": 2, "style": 1, "label": "button", "custom_id": custom_id}
        components = [{"type": 1, "components": [button]}]
        payload["message"] = message_payload(message_id, channel_id, {"content": "…", "components": components})
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        self.recorder.remember_pressed(payload["token"], message_id)
        return payload

    def select_payload(
        self, person: Person, channel_id: int, custom_id: str, value: str, message_id: int, *, ephemeral: bool
    ) -> dict[str, Any]:
        payload = self._base(person, channel_id, 3)
        # The message carries the menu that was used (with the option chosen), as Discord sends it.
        menu = {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}
        data = {"content": "…", "components": [{"type": 1, "components": [menu]}], "flags": 64 if ephemeral else 0}
        payload["message"] = message_payload(message_id, channel_id, data)
        payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        self.recorder.remember_pressed(payload["token"], message_id)
        return payload

    async def send(self, payload: dict[str, Any]) -> list[Call]:
        """Deliver one interaction through discord.py's gateway handler; return the calls it caused."""
        start = len(self.recorder.calls)
        self.bot._connection.parse_interaction_create(cast("InteractionCreateEvent", payload))
        await settle()
        return self.recorder.calls[start:]

    async def command(
        self,
        person: Person,
        channel_id: int,
        group: str,
        sub: str,
        options: list[dict[str, Any]] | None = None,
        *,
        users: list[Person] = (),  # type: ignore[assignment]
    ) -> list[Call]:
        return await self.send(self.command_payload(person, channel_id, group, sub, options, users=users))

    async def autocomplete(
        self, person: Person, channel_id: int, group: str, sub: str, options: list[dict[str, Any]]
    ) -> list[str]:
        calls = await self.send(self.command_payload(person, channel_id, group, sub, options, autocomplete=True))
        answers = [c for c in calls if c.kind == "autocomplete"]
        assert len(answers) == 1, calls
        return answers[0].choices

    async def press(
        self, person: Person, channel_id: int, custom_id: str, message_id: int = 1, *, ephemeral: bool = False
    ) -> list[Call]:
        payload = self.button_payload(person, channel_id, custom_id, message_id)
        if ephemeral:  # a button on a private (ephemeral) message
            payload["message"]["flags"] = 64
        return await self.send(payload)

    async def pick(
        self,
        person: Person,
        channel_id: int,
        custom_id: str,
        value: str,
        message_id: int = 1,
        *,
        ephemeral: bool = False,
    ) -> list[Call]:
        """Choose ``value`` in the menu ``custom_id`` (on a private message when ``ephemeral``)."""
        return await self.send(
            self.select_payload(person, channel_id, custom_id, value, message_id, ephemeral=ephemeral)
        )

    # -- the gateway: what moderators do to channels and threads, as Discord tells the bot ----------------

    def channel_payload(self, channel_id: int) -> dict[str, Any]:
        """A server text channel (or one of the recorder's threads) as the gateway describes it."""
        if channel_id in self.recorder.threads:
            return self.recorder.thread_payload(channel_id)
        return {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": f"games-{channel_id % 1000}",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }

    async def guild_create(self, channels: list[int]) -> None:
        """GUILD_CREATE: the server with its text ``channels`` and the active threads Tabula opened."""
        threads = [self.recorder.thread_payload(t) for t, v in self.recorder.threads.items() if not v["archived"]]
        payload = {
            "id": str(GUILD_ID),
            "name": "Test server",
            "unavailable": False,
            "member_count": 5,
            "roles": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "members": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "owner_id": "1",
            "channels": [self.channel_payload(c) for c in channels],
            "threads": threads,
        }
        self.bot._connection.parse_guild_create(payload)
        await settle()

    async def thread_update(self, thread_id: int, *, archived: bool, locked: bool = False) -> None:
        """A moderator archives (and maybe locks) a thread, or reopens it: THREAD_UPDATE with its metadata."""
        thread = self.recorder.threads[thread_id]
        thread.update(archived=archived, locked=locked)
        self.bot._connection.parse_thread_update(cast("ThreadUpdateEvent", self.recorder.thread_payload(thread_id)))
        await settle()

    async def thread_delete(self, thread_id: int) -> None:
        """A moderator deletes a thread: THREAD_DELETE (id, guild, parent and type only, as Discord sends it)."""
        thread = self.recorder.threads[thread_id]
        self.recorder.deleted.add(thread_id)
        payload = {"id": str(thread_id), "guild_id": str(GUILD_ID), "parent_id": str(thread["parent"]), "type": 11}
        self.bot._connection.parse_thread_delete(cast("ThreadDeleteEvent", payload))
        await settle()

    async def channel_delete(self, channel_id: int) -> None:
        """A moderator deletes a text channel (its threads go with it): CHANNEL_DELETE."""
        payload = self.channel_payload(channel_id)
        self.recorder.deleted.add(channel_id)
        for thread_id, thread in self.recorder.threads.items():
            if thread["parent"] == channel_id:
                self.recorder.deleted.add(thread_id)
        self.bot._connection.parse_channel_delete(payload)
        await settle()


# Tasks a test deliberately left waiting (a retry parked in a held sleep): settle() does not wait for them.
PARKED: set[asyncio.Task[Any]] = set()


async def settle() -> None:
    """Wait until every task the bot started (command handlers, button callbacks) has finished."""
    current = asyncio.current_task()
    for _ in range(1000):
        pending = [
            t
            for t in asyncio.all_tasks()
            if t is not current and not t.done() and t.get_name() != "tabula-sweeper" and t not in PARKED
        ]
        if not pending:
            return
        await asyncio.wait(pending, timeout=10)
    raise AssertionError("the bot never settled")
