"""Which site class draws which layout, and how to build a site without a server (for link graphs)."""

from __future__ import annotations

from research_crawler.eval.testbed.arxiv_like import ArxivLikeSite
from research_crawler.eval.testbed.biorxiv_like import BiorxivLikeSite
from research_crawler.eval.testbed.consent_journal import ConsentJournalSite
from research_crawler.eval.testbed.deep_archive import DeepArchiveSite
from research_crawler.eval.testbed.feed_preprints import FeedPreprintsSite
from research_crawler.eval.testbed.fresh_heldout import FreshBulletinSite, FreshLanguageSite
from research_crawler.eval.testbed.fresh_heldout2 import Fresh2JournalSite, Fresh2ProceedingsSite
from research_crawler.eval.testbed.fresh_heldout2_repository import Fresh2RepositorySite
from research_crawler.eval.testbed.fresh_heldout3 import Fresh3PreprintSite
from research_crawler.eval.testbed.fresh_heldout3_repository import Fresh3RepositorySite
from research_crawler.eval.testbed.fresh_heldout3_society import Fresh3SocietySite
from research_crawler.eval.testbed.fresh_heldout4 import Fresh4ThesesSite
from research_crawler.eval.testbed.fresh_heldout4_journal import Fresh4JournalSite
from research_crawler.eval.testbed.fresh_heldout4_lab import Fresh4LabSite
from research_crawler.eval.testbed.fresh_heldout5 import Fresh5ColloquiumSite
from research_crawler.eval.testbed.fresh_heldout5_homepage import Fresh5HomepageSite
from research_crawler.eval.testbed.fresh_heldout5_reports import Fresh5ReportsSite
from research_crawler.eval.testbed.fresh_heldout6_catalogue import Fresh6CatalogueSite
from research_crawler.eval.testbed.fresh_heldout6_datarepo import Fresh6DataRepoSite
from research_crawler.eval.testbed.fresh_heldout6_news import Fresh6NewsSite
from research_crawler.eval.testbed.fresh_heldout7_books import Fresh7BooksSite
from research_crawler.eval.testbed.fresh_heldout7_proceedings import Fresh7ProceedingsSite
from research_crawler.eval.testbed.fresh_heldout7_wiki import Fresh7WikiSite
from research_crawler.eval.testbed.fresh_heldout8_portal import Fresh8PortalSite
from research_crawler.eval.testbed.fresh_heldout8_preprints import Fresh8PreprintsSite
from research_crawler.eval.testbed.fresh_heldout8_review import Fresh8ReviewSite
from research_crawler.eval.testbed.fresh_heldout9_agency import Fresh9AgencySite
from research_crawler.eval.testbed.fresh_heldout9_funder import Fresh9FunderSite
from research_crawler.eval.testbed.fresh_heldout9_group import Fresh9GroupSite
from research_crawler.eval.testbed.fresh_heldout10_discovery import Fresh10DiscoverySite
from research_crawler.eval.testbed.fresh_heldout10_events import Fresh10EventsSite
from research_crawler.eval.testbed.fresh_heldout10_index import Fresh10IndexSite
from research_crawler.eval.testbed.fresh_heldout11_archive import Fresh11ArchiveSite
from research_crawler.eval.testbed.fresh_heldout11_registry import Fresh11RegistrySite
from research_crawler.eval.testbed.fresh_heldout11_standards import Fresh11StandardsSite
from research_crawler.eval.testbed.fresh_heldout12_library import Fresh12LibrarySite
from research_crawler.eval.testbed.fresh_heldout12_newsletter import Fresh12NewsletterSite
from research_crawler.eval.testbed.fresh_heldout12_theses import Fresh12ThesesSite
from research_crawler.eval.testbed.fresh_heldout13_collections import Fresh13CollectionsSite
from research_crawler.eval.testbed.fresh_heldout13_lectures import Fresh13LecturesSite
from research_crawler.eval.testbed.fresh_heldout13_readinglists import Fresh13ReadingListsSite
from research_crawler.eval.testbed.fresh_heldout14_cris import Fresh14CrisSite
from research_crawler.eval.testbed.fresh_heldout14_forum import Fresh14ForumSite
from research_crawler.eval.testbed.fresh_heldout14_wikibase import Fresh14WikibaseSite
from research_crawler.eval.testbed.fresh_heldout15_confluence import Fresh15ConfluenceSite
from research_crawler.eval.testbed.fresh_heldout15_cran import Fresh15CranSite
from research_crawler.eval.testbed.fresh_heldout15_ojs import Fresh15OjsSite
from research_crawler.eval.testbed.fresh_heldout16_blog import Fresh16BlogSite
from research_crawler.eval.testbed.fresh_heldout16_hal import Fresh16HalSite
from research_crawler.eval.testbed.fresh_heldout16_lists import Fresh16ListsSite
from research_crawler.eval.testbed.fresh_heldout17_commons import Fresh17CommonsSite
from research_crawler.eval.testbed.fresh_heldout17_papers import Fresh17PapersSite
from research_crawler.eval.testbed.fresh_heldout17_pubpub import Fresh17PubpubSite
from research_crawler.eval.testbed.fresh_heldout18_department import Fresh18DepartmentSite
from research_crawler.eval.testbed.fresh_heldout18_literature import Fresh18LiteratureSite
from research_crawler.eval.testbed.fresh_heldout18_patents import Fresh18PatentsSite
from research_crawler.eval.testbed.fresh_heldout19_hep import Fresh19HepSite
from research_crawler.eval.testbed.fresh_heldout19_library import Fresh19LibrarySite
from research_crawler.eval.testbed.fresh_heldout19_portal import Fresh19PortalSite
from research_crawler.eval.testbed.fresh_heldout20_econ import Fresh20EconSite
from research_crawler.eval.testbed.fresh_heldout20_philbib import Fresh20PhilbibSite
from research_crawler.eval.testbed.fresh_heldout20_scielo import Fresh20ScieloSite
from research_crawler.eval.testbed.fresh_heldout21_forge import Fresh21ForgeSite
from research_crawler.eval.testbed.fresh_heldout21_reviews import Fresh21ReviewsSite
from research_crawler.eval.testbed.fresh_heldout21_social import Fresh21SocialSite
from research_crawler.eval.testbed.fresh_heldout22_handbook import Fresh22HandbookSite
from research_crawler.eval.testbed.fresh_heldout22_osf import Fresh22OsfSite
from research_crawler.eval.testbed.fresh_heldout22_press import Fresh22PressSite
from research_crawler.eval.testbed.fresh_heldout23_daily import Fresh23DailySite
from research_crawler.eval.testbed.fresh_heldout23_herbarium import Fresh23HerbariumSite
from research_crawler.eval.testbed.fresh_heldout23_planet import Fresh23PlanetSite
from research_crawler.eval.testbed.fresh_heldout24_newsroom import Fresh24NewsroomSite
from research_crawler.eval.testbed.fresh_heldout24_overlay import Fresh24OverlaySite
from research_crawler.eval.testbed.fresh_heldout24_pmc import Fresh24PmcSite
from research_crawler.eval.testbed.heldout_preprints import HeldoutPreprintsSite
from research_crawler.eval.testbed.heldout_web import HeldoutSocietySite
from research_crawler.eval.testbed.journal_like import JournalLikeSite
from research_crawler.eval.testbed.js_site import JsSite
from research_crawler.eval.testbed.loadmore_portal import LoadMorePortalSite
from research_crawler.eval.testbed.models import Layout, Testbed
from research_crawler.eval.testbed.paywall_press import PaywallPressSite
from research_crawler.eval.testbed.repo_like import RepoLikeSite
from research_crawler.eval.testbed.site_app import SiteApp, SiteLinks

__all__ = ["SITE_CLASSES", "make_site_app", "offline_links"]

SITE_CLASSES: dict[Layout, type[SiteApp]] = {
    "arxiv": ArxivLikeSite,
    "biorxiv": BiorxivLikeSite,
    "journal": JournalLikeSite,
    "js": JsSite,
    "repo": RepoLikeSite,
    "consent-journal": ConsentJournalSite,
    "loadmore-portal": LoadMorePortalSite,
    "feed-preprints": FeedPreprintsSite,
    "deep-archive": DeepArchiveSite,
    "paywall-press": PaywallPressSite,
    "heldout-society": HeldoutSocietySite,
    "heldout-preprints": HeldoutPreprintsSite,
    "fresh-bulletin": FreshBulletinSite,
    "fresh-lang": FreshLanguageSite,
    "fresh2-journal": Fresh2JournalSite,
    "fresh2-repository": Fresh2RepositorySite,
    "fresh2-proceedings": Fresh2ProceedingsSite,
    "fresh3-preprints": Fresh3PreprintSite,
    "fresh3-society": Fresh3SocietySite,
    "fresh3-repository": Fresh3RepositorySite,
    "fresh4-theses": Fresh4ThesesSite,
    "fresh4-lab": Fresh4LabSite,
    "fresh4-journal": Fresh4JournalSite,
    "fresh5-colloquium": Fresh5ColloquiumSite,
    "fresh5-homepage": Fresh5HomepageSite,
    "fresh5-reports": Fresh5ReportsSite,
    "fresh6-catalogue": Fresh6CatalogueSite,
    "fresh6-datarepo": Fresh6DataRepoSite,
    "fresh6-news": Fresh6NewsSite,
    "fresh7-proceedings": Fresh7ProceedingsSite,
    "fresh7-books": Fresh7BooksSite,
    "fresh7-wiki": Fresh7WikiSite,
    "fresh8-portal": Fresh8PortalSite,
    "fresh8-review": Fresh8ReviewSite,
    "fresh8-preprints": Fresh8PreprintsSite,
    "fresh9-funder": Fresh9FunderSite,
    "fresh9-agency": Fresh9AgencySite,
    "fresh9-group": Fresh9GroupSite,
    "fresh10-index": Fresh10IndexSite,
    "fresh10-events": Fresh10EventsSite,
    "fresh10-discovery": Fresh10DiscoverySite,
    "fresh11-standards": Fresh11StandardsSite,
    "fresh11-archive": Fresh11ArchiveSite,
    "fresh11-registry": Fresh11RegistrySite,
    "fresh12-theses": Fresh12ThesesSite,
    "fresh12-newsletter": Fresh12NewsletterSite,
    "fresh12-library": Fresh12LibrarySite,
    "fresh13-collections": Fresh13CollectionsSite,
    "fresh13-readinglists": Fresh13ReadingListsSite,
    "fresh13-lectures": Fresh13LecturesSite,
    "fresh14-cris": Fresh14CrisSite,
    "fresh14-forum": Fresh14ForumSite,
    "fresh14-wikibase": Fresh14WikibaseSite,
    "fresh15-ojs": Fresh15OjsSite,
    "fresh15-cran": Fresh15CranSite,
    "fresh15-confluence": Fresh15ConfluenceSite,
    "fresh16-hal": Fresh16HalSite,
    "fresh16-blog": Fresh16BlogSite,
    "fresh16-lists": Fresh16ListsSite,
    "fresh17-papers": Fresh17PapersSite,
    "fresh17-pubpub": Fresh17PubpubSite,
    "fresh17-commons": Fresh17CommonsSite,
    "fresh18-literature": Fresh18LiteratureSite,
    "fresh18-department": Fresh18DepartmentSite,
    "fresh18-patents": Fresh18PatentsSite,
    "fresh19-portal": Fresh19PortalSite,
    "fresh19-hep": Fresh19HepSite,
    "fresh19-library": Fresh19LibrarySite,
    "fresh20-econ": Fresh20EconSite,
    "fresh20-scielo": Fresh20ScieloSite,
    "fresh20-philbib": Fresh20PhilbibSite,
    "fresh21-forge": Fresh21ForgeSite,
    "fresh21-reviews": Fresh21ReviewsSite,
    "fresh21-social": Fresh21SocialSite,
    "fresh22-osf": Fresh22OsfSite,
    "fresh22-handbook": Fresh22HandbookSite,
    "fresh22-press": Fresh22PressSite,
    "fresh23-daily": Fresh23DailySite,
    "fresh23-herbarium": Fresh23HerbariumSite,
    "fresh23-planet": Fresh23PlanetSite,
    "fresh24-pmc": Fresh24PmcSite,
    "fresh24-overlay": Fresh24OverlaySite,
    "fresh24-newsroom": Fresh24NewsroomSite,
}


def offline_links(testbed: Testbed, site_name: str, *, base_url: str | None = None) -> SiteLinks:
    """Links for rendering without a server: `base_url` for the site, unresolvable hosts for the others."""
    bases = {name: f"http://{name}.testbed.invalid/" for name in testbed.site_names()}
    testbed.site(site_name)
    if base_url is not None:
        bases[site_name] = base_url
    return SiteLinks(own_base=bases[site_name], site_bases=bases)


def make_site_app(testbed: Testbed, site_name: str, links: SiteLinks) -> SiteApp:
    """The site object that renders `site_name`'s pages."""
    spec = testbed.site(site_name)
    return SITE_CLASSES[spec.layout](testbed=testbed, spec=spec, links=links)
