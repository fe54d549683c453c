"""Browser tests in headless Chromium (marker ``browser``); see docs/web.md."""
