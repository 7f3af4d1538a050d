"""The web app (`research-crawler serve`): a request box, live progress, reports, past runs and the navigation
graph in the browser, over an HTTP API, all through the Python API (`ResearchCrawler`) and its run directories.

`research_crawler.serve.app.create_app(settings, backend=…)` builds it (imported from there, so that the command
line does not load FastAPI until `serve` runs).
"""
