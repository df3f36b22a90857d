"""Hostile strings a post, a name, a report note or a fact-check claim may carry. ``{port}``
is the port of a listener that must never be contacted."""

from __future__ import annotations

HOSTILE: tuple[str, ...] = (
    "<b>bold?</b> <i>italic?</i>",
    "<img src=http://127.0.0.1:{port}/x>",
    '<img src="http://127.0.0.1:{port}/quoted.png" width=900>',
    "<qt><img src=http://127.0.0.1:{port}/qt.png></qt>",
    "<html><body background=http://127.0.0.1:{port}/bg.png>hi</body></html>",
    "<script>alert(document.cookie)</script>",
    "<a href='javascript:alert(1)'>click me</a>",
    '<a href="file:///etc/passwd">passwords</a>',
    "<iframe src=http://127.0.0.1:{port}/frame></iframe>",
    "<style>* { display: none }</style>hidden?",
    "<span style='font-size:400px'>HUGE</span>",
    '<div style="background:url(http://127.0.0.1:{port}/css.png)">css</div>',
    "<link rel=stylesheet href=http://127.0.0.1:{port}/s.css>",
    '<meta http-equiv=refresh content="0;url=http://127.0.0.1:{port}/meta">',
    "<video src=http://127.0.0.1:{port}/v.mp4 autoplay></video>",
    "<audio src=http://127.0.0.1:{port}/a.mp3 autoplay></audio>",
    "<object data=http://127.0.0.1:{port}/o></object>",
    "<svg onload=alert(1)><image href=http://127.0.0.1:{port}/svg.png /></svg>",
    "<img src=x onerror=alert(1)>",
    "<base href=http://127.0.0.1:{port}/>",
    "<table><tr><td>cell<td>cell",
    "<!-- a comment --> <![CDATA[ data ]]>",
    "&lt;escaped&gt; &amp; &#x3C;img src=x&#x3E; &nbsp;",
    "![tracking pixel](http://127.0.0.1:{port}/md.png)",
    "[click](javascript:alert(1)) [local](file:///etc/shadow)",
    "**bold** _italic_ `code` # Heading\n> quote\n- list",
    "<http://127.0.0.1:{port}/autolink>",
    "file:///etc/passwd",
    "javascript:alert(document.domain)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "http://127.0.0.1:{port}/plain-url",
    "\u202eevil.exe\u202c",
    "user\u202egnp.exe",
    "\u2066isolated\u2069 \u2067rtl\u2069 \u2068first\u2069",
    "\u200f\u200e mark\u061c",
    "abc\u202d override \u202a embed \u202b",
    "zero\u200bwidth\u200cnon\u2060joiner\ufeffbom",
    "👨\u200d👩\u200d👧 family",
    "%1 %2 %n %s %d {0} {1} ${{jndi:ldap://127.0.0.1:{port}/a}}",
    "&Accelerator &&amp",
    "\x1b[31mterminal red\x1b[0m \x07bell",
    "tabs\t\tand\r\nwindows\rnewlines\u2028line\u2029para",
    "Z̴̡̛̗̘̙̜̝̞̟̠̀́̂̃̄̅̆̇̉̊̋̌̍̎̏̐ zalgo",
    "𝕳𝖊𝖑𝖑𝖔 𝔀𝓸𝓻𝓵𝓭 ＦＵＬＬＷＩＤＴＨ",  # noqa: RUF001 - look-alike letters on purpose
    "مرحبا <b>بالعالم</b> שלום",
    "A" * 5_000,
    "word " * 2_000,
    "lone high \ud800 and low \udfff surrogates",
    "\ud83d alone and \ude00 alone",
    "<img src=http://127.0.0.1:{port}/x>" * 40,
    "'\"; DROP TABLE items; --",
    '<p style="white-space:pre">pre</p><hr><br><br>',
    "\u0085next-line \u00a0nbsp \u3000ideographic",
)


# Strings derived from Unicode properties (every code point that has the property, not a
# hand list): bidi controls, invisible (default-ignorable) characters, right-to-left letters.
# Each carries CANARY, so a check can find where the untrusted part of a text is.

import unicodedata  # noqa: E402 - the property strings below are an addition to the list above

import regex  # noqa: E402

CANARY = "ZQX"


def with_property(name: str) -> list[str]:
    """Every code point with the Unicode property ``name`` (surrogates aside)."""
    pattern = regex.compile(rf"\p{{{name}}}")
    return [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and pattern.match(chr(c))]


BIDI_CONTROLS = with_property("Bidi_Control")
IGNORABLE = with_property("Default_Ignorable_Code_Point")
#: strong right-to-left letters (Bidi_Class R and AL), a sample from across the range
RTL_LETTERS = [c for c in with_property("L") if unicodedata.bidirectional(c) in ("R", "AL")][::23]


def bidi_strings() -> list[str]:
    """Each bidi control opening a name (an override or embedding left open reverses what
    follows), closing one, alone, and in front of right-to-left letters and digits."""
    out = []
    for n, control in enumerate(BIDI_CONTROLS):
        rtl = "".join(RTL_LETTERS[n * 3 : n * 3 + 3])
        out += [
            f"{control}{CANARY}{n} nimda",
            f"{CANARY}{n}{control}",
            f"{rtl} {CANARY}{n} {control}7",
        ]
    return out


def invisible_strings(per: int = 24) -> list[str]:
    """Every default-ignorable code point, ``per`` of them in each string, between letters
    (so each string shows letters the eye reads as one word)."""
    return [
        CANARY + "".join(f"{c}a" for c in IGNORABLE[at : at + per])
        for at in range(0, len(IGNORABLE), per)
    ]
