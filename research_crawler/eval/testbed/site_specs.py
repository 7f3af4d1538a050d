"""The five testbed sites: names, looks, and which topics each holds under which subject category."""

from __future__ import annotations

from research_crawler.eval.testbed.models import SiteSpec

__all__ = ["ARXIV_ARCHIVES", "SITE_SPECS"]

#: arXiv-style archives: code → display name (subcategory codes start with the archive code).
ARXIV_ARCHIVES: dict[str, str] = {
    "cs": "Computer Science",
    "q-bio": "Quantitative Biology",
    "physics": "Physics",
    "quant-ph": "Quantum Physics",
}

SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="arxiv-like",
        title="preXiv",
        layout="arxiv",
        tagline="Open-access archive of e-prints in computer science, physics and quantitative biology",
        categories={
            "gnn": "cs.LG",
            "diffusion": "cs.CV",
            "alignment": "cs.CL",
            "robotrl": "cs.RO",
            "qec": "quant-ph",
            "climate": "physics.ao-ph",
            "protein": "q-bio.BM",
            "scrna": "q-bio.GN",
        },
    ),
    SiteSpec(
        name="biorxiv-like",
        title="bioPreprint",
        layout="biorxiv",
        tagline="The preprint server for biology",
        categories={
            "protein": "Biophysics",
            "crispr": "Genetics",
            "scrna": "Genomics",
            "amr": "Microbiology",
            "gnn": "Bioinformatics",
            "climate": "Ecology",
        },
    ),
    SiteSpec(
        name="journal-like",
        title="LumenLink",
        layout="journal",
        tagline="Journals, books and research articles across the sciences",
        categories={
            "gnn": "Machine Intelligence Letters",
            "alignment": "Machine Intelligence Letters",
            "diffusion": "Computational Imaging Review",
            "qec": "Quantum Information Systems",
            "protein": "Molecular Life Sciences",
            "climate": "Earth System Dynamics Letters",
            "amr": "Microbial Medicine",
        },
    ),
    SiteSpec(
        name="js-site",
        title="PaperStream",
        layout="js",
        tagline="Fresh research, streamed to your screen",
        categories={
            "robotrl": "Robotics",
            "gnn": "Machine Learning",
            "alignment": "Language Models",
            "scrna": "Genomics",
            "crispr": "Gene Editing",
            "qec": "Quantum Computing",
        },
    ),
    SiteSpec(
        name="repo-like",
        title="HALo Open Archive",
        layout="repo",
        tagline="Multidisciplinary open archive for scholarly documents",
        categories={
            "climate": "Environmental Sciences [sde]",
            "amr": "Life Sciences [q-bio]",
            "protein": "Life Sciences [q-bio]",
            "crispr": "Life Sciences [q-bio]",
            "qec": "Physics [physics]",
            "robotrl": "Computer Science [cs]",
            "diffusion": "Computer Science [cs]",
        },
    ),
)
