"""The steps of ``build.py`` (the one entry point, at the top of the checkout), one module each:
``pins`` (every pinned version and hash), ``tools`` (where things are, running and setting up
tools), ``fetch`` (the pinned inputs, into .cache/), ``wheel`` (the engine's wheel),
``stdlib`` (the page's standard library), ``bytecode`` (both compiled by the runtime for the
page), ``snapshot`` (the runtime's memory snapshot),
``content`` (the Rules dialog, the catalogs and manifests, the icons), ``dist`` (making dist/
and its manifest) and ``serve`` (serving a built folder). Standard library only; importing
them does no work."""
