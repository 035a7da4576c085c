"""Discord's published limits, each defined once, named as Discord's developer documentation names them.

Every command the bot declares and every post it makes is built within these numbers; the text layer
shortens what it must (:mod:`bot.text.formatting`), and the tests check the whole command payload in
every locale and every request at the HTTP edge against them (:func:`command_problems`,
:func:`message_problems`, and the rest below, pure functions over the JSON Discord receives).

Sources, as of late 2026: the developer documentation's pages on application commands, messages and
embeds, components, channels and uploads, and Discord's OpenAPI description (``discord-api-spec``), whose
``Int53Type`` bounds INTEGER options by the safe-integer range (the documentation said 2^53 until it was
corrected in October 2025).  Where the two differ, the stricter number is kept: message content is 2,000
characters for a bot although the OpenAPI schema allows 4,000 (a Nitro user's limit).

This module imports nothing from the bot, so every layer may use it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

# -- application commands (Interactions › Application Commands) ---------------------------------------

#: ``name``: 1-32 characters, matching :data:`COMMAND_NAME_PATTERN` (chat-input commands and all options).
COMMAND_NAME_MIN = 1
COMMAND_NAME_MAX = 32
#: The documented pattern, with the unicode flag: Python's ``re`` has no ``\p{…}``, so
#: :func:`command_name_problem` checks the same classes by Unicode category and script.
COMMAND_NAME_PATTERN = r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$"
#: ``description``: 1-100 characters for chat-input commands and every option (and each localization).
COMMAND_DESCRIPTION_MIN = 1
COMMAND_DESCRIPTION_MAX = 100
#: ``options``: at most 25 per command, subcommand group or subcommand.
COMMAND_OPTIONS_MAX = 25
#: ``choices``: at most 25 per option.
OPTION_CHOICES_MAX = 25
#: A choice's ``name``: 1-100 characters; a string ``value``: up to 100 characters.
CHOICE_NAME_MIN = 1
CHOICE_NAME_MAX = 100
CHOICE_STRING_VALUE_MAX = 100
#: ``min_length`` / ``max_length`` of a STRING option: 0-6000 and 1-6000.
OPTION_MIN_LENGTH_MAX = 6000
OPTION_MAX_LENGTH_MIN = 1
OPTION_MAX_LENGTH_MAX = 6000
#: An INTEGER option is "any integer between -2^53+1 and 2^53-1" (``Int53Type``): its bounds too.
INTEGER_OPTION_MIN = -(2**53 - 1)
INTEGER_OPTION_MAX = 2**53 - 1
#: A NUMBER option is "any double between -2^53 and 2^53".
NUMBER_OPTION_MIN = -(2**53)
NUMBER_OPTION_MAX = 2**53
#: A command's combined name, description and value properties (its options and choices included; for a
#: localized field only its longest text, the default among them, counts).
COMMAND_CHARACTERS_MAX = 8000
#: ``name_localizations`` / ``description_localizations``: at most this many locales (the OpenAPI's ``maxProperties``).
LOCALIZATIONS_MAX = 34
#: Global chat-input commands an application may have.
GLOBAL_CHAT_INPUT_COMMANDS_MAX = 100
#: An autocomplete answer holds at most 25 choices (each a choice as above).
AUTOCOMPLETE_CHOICES_MAX = 25

# -- interactions (Interactions › Receiving and Responding) --------------------------------------------

#: The first answer to an interaction must come within 3 seconds; its token then serves for 15 minutes.
INTERACTION_RESPONSE_SECONDS = 3.0
INTERACTION_TOKEN_SECONDS = 15 * 60

# -- messages and embeds (Resources › Message) ---------------------------------------------------------

#: ``content``: up to 2000 characters.
MESSAGE_CONTENT_MAX = 2000
#: ``embeds``: up to 10 rich embeds.
MESSAGE_EMBEDS_MAX = 10
#: ``nonce``: up to 25 characters.
MESSAGE_NONCE_MAX = 25
#: Embed limits ("measured inclusively"; leading and trailing whitespace is trimmed by Discord).
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_TEXT_MAX = 2048
EMBED_AUTHOR_NAME_MAX = 256
#: The sum of every title, description, field name and value, footer text and author name of a message.
EMBED_TOTAL_MAX = 6000
#: An attachment's ``description`` (its alt text) and ``filename``: up to 1024 characters.
ATTACHMENT_DESCRIPTION_MAX = 1024
ATTACHMENT_FILENAME_MAX = 1024
#: The default file upload limit, per attachment, since January 2025 (10 MiB); a whole request up to 25 MiB.
ATTACHMENT_SIZE_MAX = 10 * 1024 * 1024
MESSAGE_REQUEST_SIZE_MAX = 25 * 1024 * 1024
#: ``allowed_mentions.users`` / ``roles``: up to 100 ids each.
ALLOWED_MENTIONS_MAX = 100

# -- components (Components › Reference) --------------------------------------------------------------

#: The message flag that switches a message to the newer layout (Components V2).
IS_COMPONENTS_V2 = 1 << 15
#: Legacy layout: up to 5 action rows, each with up to 5 buttons or a single select.
MESSAGE_ACTION_ROWS_MAX = 5
ACTION_ROW_BUTTONS_MAX = 5
#: Components V2: up to 40 components in a message, nested ones included.
MESSAGE_COMPONENTS_MAX = 40
#: A Text Display's ``content``: 1-4000 characters.
TEXT_DISPLAY_CONTENT_MAX = 4000
#: A Media Gallery holds 1-10 items; an item's (or a Thumbnail's) ``description``: up to 1024 characters.
MEDIA_GALLERY_ITEMS_MAX = 10
MEDIA_DESCRIPTION_MAX = 1024
#: ``custom_id`` of any interactive component: 1-100 characters, unique within a message.
CUSTOM_ID_MIN = 1
CUSTOM_ID_MAX = 100
#: A button's ``label``: up to 80 characters; a link button's ``url``: up to 512.
BUTTON_LABEL_MAX = 80
BUTTON_URL_MAX = 512
#: A select: up to 25 options; ``placeholder`` up to 150 characters; ``min_values`` 0-25, ``max_values`` 1-25.
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
SELECT_VALUES_MAX = 25
#: A select option's ``label``, ``value`` and ``description``: up to 100 characters each.
SELECT_OPTION_LABEL_MAX = 100
SELECT_OPTION_VALUE_MAX = 100
SELECT_OPTION_DESCRIPTION_MAX = 100

# -- channels and threads (Resources › Channel) --------------------------------------------------------

#: A channel's (and a thread's) ``name``: 1-100 characters.
CHANNEL_NAME_MIN = 1
CHANNEL_NAME_MAX = 100
THREAD_NAME_MAX = CHANNEL_NAME_MAX

# -- the error Discord answers a request outside these limits with ------------------------------------

#: HTTP 400 with JSON error code 50035, "Invalid Form Body", and the offending fields under ``errors``.
INVALID_FORM_BODY = 50035


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, marking a cut with an ellipsis (the one way the bot shortens text)."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


# -- checks: what Discord would refuse, as sentences naming the field ----------------------------------

_DEVANAGARI = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F))
_THAI = ((0x0E00, 0x0E7F),)


def _in_ranges(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in ranges)


def command_name_problem(name: object) -> str | None:
    """Say why Discord would refuse ``name`` as a chat-input command or option name, or ``None``."""
    if not isinstance(name, str) or not COMMAND_NAME_MIN <= len(name) <= COMMAND_NAME_MAX:
        return f"name {name!r} must be {COMMAND_NAME_MIN}-{COMMAND_NAME_MAX} characters"
    for char in name:
        category = unicodedata.category(char)
        allowed = char in "-_'" or category[0] in "LN" or _in_ranges(char, _DEVANAGARI) or _in_ranges(char, _THAI)
        if not allowed:
            return f"name {name!r} holds {char!r}, outside {COMMAND_NAME_PATTERN}"
        if char.lower() != char and len(char.lower()) == 1:
            return f"name {name!r} must use the lowercase variant of {char!r}"
    return None


def _length_problem(where: str, text: object, low: int, high: int) -> str | None:
    if not isinstance(text, str) or not low <= len(text) <= high:
        size = len(text) if isinstance(text, str) else type(text).__name__
        return f"{where}: {size} characters, outside {low}-{high}"
    return None


def _localized(where: str, base: object, localized: object, low: int, high: int, name: bool) -> Iterator[str]:
    """Check a field and its localizations; names also against the pattern."""
    texts: list[tuple[str, object]] = [(where, base)]
    if localized:
        if not isinstance(localized, Mapping):
            yield f"{where}_localizations must be an object"
            return
        if len(localized) > LOCALIZATIONS_MAX:
            yield f"{where}_localizations: {len(localized)} locales, over {LOCALIZATIONS_MAX}"
        texts += [(f"{where}[{locale}]", text) for locale, text in localized.items()]
    for label, text in texts:
        problem = command_name_problem(text) if name else _length_problem(label, text, low, high)
        if problem is not None:
            yield f"{label}: {problem}" if name else problem


def _longest(base: object, localized: object) -> int:
    lengths = [len(base) if isinstance(base, str) else len(str(base))]
    if isinstance(localized, Mapping):
        lengths += [len(text) for text in localized.values() if isinstance(text, str)]
    return max(lengths)


def _choice_problems(where: str, choice: Mapping[str, Any]) -> Iterator[str]:
    yield from _localized(
        f"{where}.name", choice.get("name"), choice.get("name_localizations"), CHOICE_NAME_MIN, CHOICE_NAME_MAX, False
    )
    value = choice.get("value")
    if isinstance(value, str):
        if len(value) > CHOICE_STRING_VALUE_MAX:
            yield f"{where}.value: {len(value)} characters, over {CHOICE_STRING_VALUE_MAX}"
    elif isinstance(value, bool) or not isinstance(value, int | float):
        yield f"{where}.value must be a string, an integer or a number"
    elif isinstance(value, int) and not INTEGER_OPTION_MIN <= value <= INTEGER_OPTION_MAX:
        yield f"{where}.value {value} is outside {INTEGER_OPTION_MIN}..{INTEGER_OPTION_MAX}"


STRING, INTEGER, NUMBER = 3, 4, 10
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2


def _option_problems(where: str, option: Mapping[str, Any]) -> Iterator[str]:
    yield from _localized(f"{where}.name", option.get("name"), option.get("name_localizations"), 0, 0, True)
    yield from _localized(
        f"{where}.description",
        option.get("description"),
        option.get("description_localizations"),
        COMMAND_DESCRIPTION_MIN,
        COMMAND_DESCRIPTION_MAX,
        False,
    )
    kind = option.get("type")
    choices = option.get("choices") or []
    if len(choices) > OPTION_CHOICES_MAX:
        yield f"{where}.choices: {len(choices)}, over {OPTION_CHOICES_MAX}"
    if choices and option.get("autocomplete"):
        yield f"{where}: autocomplete may not be set with choices"
    for index, choice in enumerate(choices):
        yield from _choice_problems(f"{where}.choices[{index}]", choice)
    for bound in ("min_value", "max_value"):
        value = option.get(bound)
        if value is None:
            continue
        if kind == INTEGER and not (isinstance(value, int) and INTEGER_OPTION_MIN <= value <= INTEGER_OPTION_MAX):
            yield f"{where}.{bound}: {value} is outside {INTEGER_OPTION_MIN}..{INTEGER_OPTION_MAX}"
        if kind == NUMBER and not NUMBER_OPTION_MIN <= value <= NUMBER_OPTION_MAX:
            yield f"{where}.{bound}: {value} is outside {NUMBER_OPTION_MIN}..{NUMBER_OPTION_MAX}"
        if kind not in (INTEGER, NUMBER):
            yield f"{where}.{bound} is only for INTEGER and NUMBER options"
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None and high is not None and low > high:
        yield f"{where}: min_value {low} above max_value {high}"
    min_length, max_length = option.get("min_length"), option.get("max_length")
    if min_length is not None and not 0 <= min_length <= OPTION_MIN_LENGTH_MAX:
        yield f"{where}.min_length: {min_length}, outside 0-{OPTION_MIN_LENGTH_MAX}"
    if max_length is not None and not OPTION_MAX_LENGTH_MIN <= max_length <= OPTION_MAX_LENGTH_MAX:
        yield f"{where}.max_length: {max_length}, outside {OPTION_MAX_LENGTH_MIN}-{OPTION_MAX_LENGTH_MAX}"
    if (min_length is not None or max_length is not None) and kind != STRING:
        yield f"{where}: min_length and max_length are only for STRING options"
    nested = option.get("options") or []
    if nested and kind not in (SUB_COMMAND, SUB_COMMAND_GROUP):
        yield f"{where}: only subcommands and groups hold options"
    if len(nested) > COMMAND_OPTIONS_MAX:
        yield f"{where}.options: {len(nested)}, over {COMMAND_OPTIONS_MAX}"
    for inner in nested:
        yield from _option_problems(f"{where} {inner.get('name')}", inner)


def command_characters(command: Mapping[str, Any]) -> int:
    """Count a command as Discord does against :data:`COMMAND_CHARACTERS_MAX`: every name, description and
    choice value of the command, its options and choices, a localized field by its longest text."""
    total = _longest(command.get("name", ""), command.get("name_localizations"))
    total += _longest(command.get("description") or "", command.get("description_localizations"))
    for option in command.get("options") or []:
        total += command_characters(option)
    for choice in command.get("choices") or []:
        total += _longest(choice.get("name", ""), choice.get("name_localizations"))
        total += len(str(choice.get("value", "")))
    return total


def command_problems(command: Mapping[str, Any]) -> list[str]:
    """Every reason Discord would refuse one chat-input command of a bulk overwrite (empty: it fits)."""
    where = f"/{command.get('name')}"
    problems = list(_localized(f"{where} name", command.get("name"), command.get("name_localizations"), 0, 0, True))
    problems += _localized(
        f"{where} description",
        command.get("description"),
        command.get("description_localizations"),
        COMMAND_DESCRIPTION_MIN,
        COMMAND_DESCRIPTION_MAX,
        False,
    )
    options = command.get("options") or []
    if len(options) > COMMAND_OPTIONS_MAX:
        problems.append(f"{where}.options: {len(options)}, over {COMMAND_OPTIONS_MAX}")
    for option in options:
        problems += _option_problems(f"{where} {option.get('name')}", option)
    characters = command_characters(command)
    if characters > COMMAND_CHARACTERS_MAX:
        problems.append(f"{where}: {characters} characters in all, over {COMMAND_CHARACTERS_MAX}")
    return problems


def commands_problems(commands: Iterable[Mapping[str, Any]]) -> list[str]:
    """Check a whole bulk overwrite: each command, their number, and no name twice."""
    listed = list(commands)
    problems = [problem for command in listed for problem in command_problems(command)]
    chat_input = [c for c in listed if c.get("type", 1) == 1]
    if len(chat_input) > GLOBAL_CHAT_INPUT_COMMANDS_MAX:
        problems.append(f"{len(chat_input)} chat-input commands, over {GLOBAL_CHAT_INPUT_COMMANDS_MAX}")
    names = [str(c.get("name")) for c in chat_input]
    problems += [f"/{name} is declared twice" for name in sorted({n for n in names if names.count(n) > 1})]
    return problems


def autocomplete_problems(choices: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every reason Discord would refuse an autocomplete answer."""
    listed = list(choices)
    problems = []
    if len(listed) > AUTOCOMPLETE_CHOICES_MAX:
        problems.append(f"autocomplete: {len(listed)} choices, over {AUTOCOMPLETE_CHOICES_MAX}")
    for index, choice in enumerate(listed):
        problems += _choice_problems(f"autocomplete choice {index}", choice)
    return problems


def _stripped(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _embed_problems(index: int, embed: Mapping[str, Any]) -> tuple[list[str], int]:
    where = f"embeds[{index}]"
    problems: list[str] = []
    counted = 0
    parts: list[tuple[str, object, int]] = [
        ("title", embed.get("title"), EMBED_TITLE_MAX),
        ("description", embed.get("description"), EMBED_DESCRIPTION_MAX),
        ("footer.text", (embed.get("footer") or {}).get("text"), EMBED_FOOTER_TEXT_MAX),
        ("author.name", (embed.get("author") or {}).get("name"), EMBED_AUTHOR_NAME_MAX),
    ]
    fields = embed.get("fields") or []
    if len(fields) > EMBED_FIELDS_MAX:
        problems.append(f"{where}.fields: {len(fields)}, over {EMBED_FIELDS_MAX}")
    for number, embed_field in enumerate(fields):
        parts.append((f"fields[{number}].name", embed_field.get("name"), EMBED_FIELD_NAME_MAX))
        parts.append((f"fields[{number}].value", embed_field.get("value"), EMBED_FIELD_VALUE_MAX))
    for name, value, limit in parts:
        text = _stripped(value)
        counted += len(text)
        if len(text) > limit:
            problems.append(f"{where}.{name}: {len(text)} characters, over {limit}")
    return problems, counted


def _walk(components: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])
        accessory = component.get("accessory")
        if accessory:
            yield accessory


BUTTON, STRING_SELECT, TEXT_DISPLAY, MEDIA_GALLERY, THUMBNAIL, ACTION_ROW = 2, 3, 10, 12, 11, 1
_SELECTS = (3, 5, 6, 7, 8)


def _component_problems(component: Mapping[str, Any]) -> Iterator[str]:
    kind = component.get("type")
    name = f"component type {kind}"
    custom_id = component.get("custom_id")
    if custom_id is not None and not CUSTOM_ID_MIN <= len(custom_id) <= CUSTOM_ID_MAX:
        yield f"{name} custom_id: {len(custom_id)} characters, outside {CUSTOM_ID_MIN}-{CUSTOM_ID_MAX}"
    if kind == BUTTON:
        label = component.get("label") or ""
        if len(label) > BUTTON_LABEL_MAX:
            yield f"button label {label[:20]!r}…: {len(label)} characters, over {BUTTON_LABEL_MAX}"
        if len(component.get("url") or "") > BUTTON_URL_MAX:
            yield f"button url over {BUTTON_URL_MAX} characters"
    if kind in _SELECTS:
        if len(component.get("placeholder") or "") > SELECT_PLACEHOLDER_MAX:
            yield f"select placeholder over {SELECT_PLACEHOLDER_MAX} characters"
        options = component.get("options") or []
        if kind == STRING_SELECT and not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            yield f"select options: {len(options)}, outside 1-{SELECT_OPTIONS_MAX}"
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not 0 <= low <= SELECT_VALUES_MAX or not 1 <= high <= SELECT_VALUES_MAX or low > high:
            yield f"select min_values {low} / max_values {high} outside 0-{SELECT_VALUES_MAX}"
        for option in options:
            for key, limit in (
                ("label", SELECT_OPTION_LABEL_MAX),
                ("value", SELECT_OPTION_VALUE_MAX),
                ("description", SELECT_OPTION_DESCRIPTION_MAX),
            ):
                text = option.get(key) or ""
                if len(text) > limit:
                    yield f"select option {key} {text[:20]!r}…: {len(text)} characters, over {limit}"
    if kind == TEXT_DISPLAY:
        problem = _length_problem("text display content", component.get("content"), 1, TEXT_DISPLAY_CONTENT_MAX)
        if problem:
            yield problem
    if kind == MEDIA_GALLERY:
        items = component.get("items") or []
        if not 1 <= len(items) <= MEDIA_GALLERY_ITEMS_MAX:
            yield f"media gallery items: {len(items)}, outside 1-{MEDIA_GALLERY_ITEMS_MAX}"
        for item in items:
            if len(item.get("description") or "") > MEDIA_DESCRIPTION_MAX:
                yield f"media gallery description over {MEDIA_DESCRIPTION_MAX} characters"
    if kind == THUMBNAIL and len(component.get("description") or "") > MEDIA_DESCRIPTION_MAX:
        yield f"thumbnail description over {MEDIA_DESCRIPTION_MAX} characters"


def message_problems(message: Mapping[str, Any], files: Mapping[str, bytes] | None = None) -> list[str]:
    """Every reason Discord would refuse a message as posted or edited (a create or edit body, an interaction
    response's ``data``, a webhook follow-up), with its attached ``files`` by name when given."""
    problems: list[str] = []
    v2 = bool((message.get("flags") or 0) & IS_COMPONENTS_V2)
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        problems.append("content must be a string")
    elif content and v2:
        problems.append("content cannot be set on a Components V2 message")
    elif content and len(content) > MESSAGE_CONTENT_MAX:
        problems.append(f"content: {len(content)} characters, over {MESSAGE_CONTENT_MAX}")
    nonce = message.get("nonce")
    if nonce is not None and len(str(nonce)) > MESSAGE_NONCE_MAX:
        problems.append(f"nonce over {MESSAGE_NONCE_MAX} characters")
    embeds = message.get("embeds") or []
    if embeds and v2:
        problems.append("embeds cannot be set on a Components V2 message")
    if len(embeds) > MESSAGE_EMBEDS_MAX:
        problems.append(f"embeds: {len(embeds)}, over {MESSAGE_EMBEDS_MAX}")
    total = 0
    for index, embed in enumerate(embeds):
        found, counted = _embed_problems(index, embed)
        problems += found
        total += counted
    if total > EMBED_TOTAL_MAX:
        problems.append(f"embeds: {total} characters in all, over {EMBED_TOTAL_MAX}")
    for attachment in message.get("attachments") or []:
        description = attachment.get("description") or ""
        if len(description) > ATTACHMENT_DESCRIPTION_MAX:
            problems.append(
                f"attachment {attachment.get('filename')} description: {len(description)} characters, "
                f"over {ATTACHMENT_DESCRIPTION_MAX}"
            )
        if len(attachment.get("filename") or "") > ATTACHMENT_FILENAME_MAX:
            problems.append(f"attachment filename over {ATTACHMENT_FILENAME_MAX} characters")
    for name, data in (files or {}).items():
        if len(data) > ATTACHMENT_SIZE_MAX:
            problems.append(f"file {name}: {len(data)} bytes, over {ATTACHMENT_SIZE_MAX}")
    if files and sum(len(data) for data in files.values()) > MESSAGE_REQUEST_SIZE_MAX:
        problems.append(f"files: over {MESSAGE_REQUEST_SIZE_MAX} bytes in one request")
    mentions = message.get("allowed_mentions") or {}
    for key in ("users", "roles"):
        if len(mentions.get(key) or []) > ALLOWED_MENTIONS_MAX:
            problems.append(f"allowed_mentions.{key}: over {ALLOWED_MENTIONS_MAX}")
    problems += components_problems(message.get("components") or [], v2=v2)
    return problems


def components_problems(components: list[Mapping[str, Any]], *, v2: bool) -> list[str]:
    """Every reason Discord would refuse a message's ``components``, in the legacy layout or Components V2."""
    problems: list[str] = []
    every = list(_walk(components))
    if v2:
        if len(every) > MESSAGE_COMPONENTS_MAX:
            problems.append(f"components: {len(every)} in all, over {MESSAGE_COMPONENTS_MAX}")
    else:
        if len(components) > MESSAGE_ACTION_ROWS_MAX:
            problems.append(f"components: {len(components)} action rows, over {MESSAGE_ACTION_ROWS_MAX}")
        for row in components:
            if row.get("type") != ACTION_ROW:
                problems.append("a legacy message's top-level components must be action rows")
                continue
            inner = row.get("components") or []
            selects = [c for c in inner if c.get("type") in _SELECTS]
            if selects and len(inner) > 1:
                problems.append("an action row with a select holds nothing else")
            if len(inner) > ACTION_ROW_BUTTONS_MAX:
                problems.append(f"an action row holds {len(inner)} components, over {ACTION_ROW_BUTTONS_MAX}")
    ids = [c["custom_id"] for c in every if c.get("custom_id") is not None]
    problems += [f"custom_id {i!r} is used twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    for component in every:
        problems += _component_problems(component)
    return problems


def channel_name_problem(name: object) -> str | None:
    """Say why Discord would refuse ``name`` for a channel or thread, or ``None``."""
    return _length_problem("channel name", name, CHANNEL_NAME_MIN, CHANNEL_NAME_MAX)
