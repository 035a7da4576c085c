"""Drive the real bot without Discord: Discord-shaped payloads in, a recorder at the HTTP edge.

Used by the tests (through ``tests.harness``) and by ``bench/load.py``.

Interactions are built from payloads shaped like Discord's gateway events and fed
to discord.py's own ``ConnectionState.parse_interaction_create``, so the real
``CommandTree``, option transformers, autocomplete and ``DynamicItem`` dispatch
run.  The two places where discord.py would touch the network
(``HTTPClient.request`` for bot REST calls and ``AsyncWebhookAdapter.request``
for interaction responses and follow-ups) are replaced by a :class:`Recorder`
that answers like Discord and keeps every call.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

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
            return "edit-original"
        if self.path.startswith("/channels/") and self.method == "PATCH":
            return "edit-message"
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

    def clear(self) -> None:
        self.calls.clear()

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

    def _respond(self, method: str, path: str, body: Any) -> Any:
        if self.fail_next:
            self.fail_next -= 1
            raise discord.DiscordServerError(_FakeResponse(503), {"message": "Service Unavailable", "code": 0})
        if path.endswith("/callback"):
            response_type = body.get("type")
            interaction_id = int(path.split("/")[2])
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
            return result
        match = re.match(r"^/channels/(\d+)/messages/(\d+)$", path)
        if match:
            return message_payload(int(match[2]), int(match[1]), body or {})
        if path.startswith("/webhooks/"):
            return message_payload(snowflake(), 0, body or {})
        if path.endswith("/commands") and method == "PUT":
            return [{**cmd, "id": str(snowflake()), "application_id": str(APP_ID), "version": "1"} for cmd in body]
        if path.startswith("/channels/") and method == "POST":
            return message_payload(snowflake(), int(path.split("/")[2]), body or {})
        return {}

    async def webhook_request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        body, files = self._decode(kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files"), None)
        self.calls.append(Call(route.method, route.path_for_recording, body, files))
        return self._respond(route.method, route.path_for_recording, body)

    async def http_request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        body, attached = self._decode(kwargs.get("json"), None, files, form)
        self.calls.append(Call(route.method, route.path_for_recording, body, attached))
        return self._respond(route.method, route.path_for_recording, body)


class _FakeResponse:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Service Unavailable"


def _route_path(route: Any) -> str:
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

    def _base(self, person: Person, channel_id: int, kind: int) -> dict[str, Any]:
        return {
            "id": str(snowflake()),
            "application_id": str(APP_ID),
            "type": kind,
            "token": f"token-{snowflake()}",
            "version": 1,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": f"games-{channel_id % 1000}",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            },
            "member": member_payload(person.id, person.name, permissions=person.permissions, bot=person.bot),
            "app_permissions": ADMIN_PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
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
        return payload

    async def send(self, payload: dict[str, Any]) -> list[Call]:
        """Deliver one interaction through discord.py's gateway handler; return the calls it caused."""
        start = len(self.recorder.calls)
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[attr-defined, arg-type]
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

    async def press(self, person: Person, channel_id: int, custom_id: str, message_id: int = 1) -> list[Call]:
        return await self.send(self.button_payload(person, channel_id, custom_id, message_id))


async def settle() -> None:
    """Wait until every task the bot started (command handlers, button callbacks) has finished."""
    current = asyncio.current_task()
    for _ in range(1000):
        pending = [
            t for t in asyncio.all_tasks() if t is not current and not t.done() and t.get_name() != "tabula-sweeper"
        ]
        if not pending:
            return
        await asyncio.wait(pending, timeout=10)
    raise AssertionError("the bot never settled")
