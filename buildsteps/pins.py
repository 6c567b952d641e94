"""Every pinned version and hash of what build.py fetches or installs, in this one place:
the npm tarballs (the Pyodide runtime, the page's transport, and axe-core and TypeScript for
the tests), the PyPI wheels (micropip, flit_core) and the test tools of .venv. A download
that does not match its hash stops the build (tools.check_hash)."""

from __future__ import annotations

PYODIDE = {"version": "314.0.7",  # npm tarball
           "sha256": "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"}
AXE_CORE = {"version": "4.14.1",  # npm tarball; the browser tests' accessibility checks only
            "sha256": "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745"}
TYPESCRIPT = {"version": "5.9.3",  # npm tarball; its tsc type-checks web/'s JavaScript in test
              "sha256": "10e108c9cf7d5f2879053dff18515fb405abf2ccef63eaaf017d9c571687a1d3"}
# The remote table's transport (web/remote/): trystero's Nostr strategy and its one
# dependency, served from dist/vendor/ as ES modules (see fetch_transport); and lean-qr (7 KB,
# MIT), which draws an invitation's QR code in the host's page (web/remote/qr.js).
TRANSPORT = {  # npm tarballs: {name: {version, sha256}}
    name: {"version": version, "sha256": sha256} for name, version, sha256 in [
        ("@trystero-p2p/core", "0.25.4",
         "d0b156fbe560770d8c7dcb4cb8a51c2e90c2a5cdb35c800ed5c5998c5e4a7c44"),
        ("@trystero-p2p/nostr", "0.25.4",
         "639479ac29f7cb3707b902f40e2e7afabe389c32de4a426a62c89a116bbbd850"),
        ("@noble/secp256k1", "3.2.0",
         "2722e0b18b696cf6d3463ab10365f97f617fb651e85a7eeed8f12121a1077018"),
        ("lean-qr", "2.7.4",
         "e751d84a17c979a79d231828b9a3da0595614340d0d1138dec557ddc63deb10e"),
    ]
}
PYODIDE_PYTHON = "3.14"  # the Python inside that runtime: micropip's wheel, site-packages
MICROPIP = {"version": "0.11.1",  # PyPI wheel, not Pyodide's own build (see make_snapshot)
            "sha256": "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"}
FLIT_CORE = {"version": "3.12.0",  # builds the engine wheel
             "sha256": "e7a0304069ea895172e3c7bb703292e992c5d1555dd1233ab7b5621b5b69e62c"}
DEV_TOOLS = ["pytest==9.0.3", "hypothesis==6.155.2", "mypy==2.4.1", "ruff==0.17.6",
             "playwright==1.65.2",
             "websockets==17.4"]  # the browser tests' local Nostr relay (tests/nostr_relay.py)
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest zip time: timestamps carry no meaning
