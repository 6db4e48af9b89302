// Six invented sites, each with its own template: header menus of different sizes, footers,
// a related-links sidebar that differs per page, bylines, tags, share and newsletter boxes.
// Template words come from the phrase lists below; which phrases a site uses, and in which
// order, is drawn from the site's own seed, so every site reads differently.
import { mulberry32 } from '../../src/random.js';

/** A seeded generator (mulberry32): same seed, same sequence. */
export const random = mulberry32;

/** k distinct items of list, in a random order. */
export function pick<T>(rnd: () => number, list: readonly T[], k: number): T[] {
  const a = list.slice();
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a.slice(0, Math.min(k, a.length));
}

export const MENU_PHRASES = [
  'Home', 'Latest news', 'Linux', 'Open source', 'Security advisories', 'Cloud computing', 'Containers', 'Kubernetes',
  'Programming', 'Python', 'Rust', 'JavaScript', 'Go', 'Databases', 'PostgreSQL tips', 'Hardware reviews', 'Laptops',
  'Single board computers', 'Raspberry Pi', 'Networking', 'Firewalls', 'VPN guides', 'Servers', 'Virtualization',
  'Storage', 'Backups', 'Desktop environments', 'GNOME', 'KDE Plasma', 'Window managers', 'Terminal tricks',
  'Shell scripting', 'System administration', 'DevOps', 'Automation', 'Configuration management', 'Monitoring',
  'Logging', 'Performance tuning', 'Kernel news', 'Distributions', 'Debian', 'Ubuntu', 'Fedora', 'Arch Linux',
  'Package management', 'Software reviews', 'Tutorials', 'How-to guides', 'Beginners corner', 'Career advice',
  'Interviews', 'Opinion', 'Events', 'Conferences', 'Webinars', 'Podcasts', 'Videos', 'Newsletter', 'Deals',
  'Buying guides', 'Best of the year', 'Privacy', 'Encryption', 'Email servers', 'Web servers', 'Reverse proxies',
  'Self hosting', 'Home lab', 'Embedded systems', 'Internet of things', 'Mobile', 'Android', 'Gaming on Linux',
  'Audio production', 'Video editing', 'Graphics and design', 'Office suites', 'Education', 'Science software',
  'Machine learning', 'Data engineering', 'Web development', 'Frameworks', 'Testing', 'Continuous integration',
  'Version control', 'Code review', 'Community', 'Licensing', 'Free software law', 'Funding and sponsorship',
  'Accessibility', 'Localization', 'Documentation', 'Release notes', 'Archives', 'Forums', 'Jobs board',
  'Write for us', 'Advertise', 'About us', 'Contact', 'Subscribe', 'Sign in', 'Register', 'Shop',
];

export const FOOTER_SENTENCES = [
  'is an independent publication covering free software, system administration and the people who build the open web.',
  'Our writers are practitioners who run the systems they write about, and every guide is tested before it is published.',
  'We do not accept payment for reviews and we disclose every partnership at the top of the article it concerns.',
  'Content is published under a Creative Commons licence unless stated otherwise; trademarks belong to their owners.',
  'Some links on this site are affiliate links: we may earn a small commission when you buy through them, at no cost to you.',
  'Found a mistake? Write to the editors and we will correct it and note the change at the bottom of the page.',
  'Reproduction of articles in whole or in part is allowed with a link back to the original page.',
  'We use cookies to measure our audience and to remember your preferences; you can change your choice at any time.',
  'Hosting generously provided by our friends at a small cooperative data centre running entirely on renewable power.',
  'Made with care by a distributed team of editors, translators and volunteers in eleven countries.',
];

export const FOOTER_LINKS = ['About', 'Contact', 'Privacy policy', 'Terms of use', 'Cookie settings', 'Advertise', 'Careers',
  'Press', 'RSS feeds', 'Sitemap', 'Accessibility statement', 'Editorial guidelines', 'Corrections', 'Imprint', 'Support us'];

export const AUTHORS = ['Alice Martin', 'Bruno Keller', 'Chiara Rossi', 'Daniel Okafor', 'Eva Lindqvist', 'Farid Haddad',
  'Grace Liu', 'Hugo Moreau', 'Ines Carvalho', 'Jonas Weber', 'Kavya Iyer', 'Liam O\'Connor', 'Mei Tanaka', 'Nora Petrov',
  'Oscar Janssen', 'Priya Natarajan', 'Quentin Lefebvre', 'Rosa Jimenez', 'Samuel Adeyemi', 'Tara Novak'];

export const TAGS = ['apt', 'dpkg', 'packages', 'networking', 'security', 'firewall', 'ssh', 'kernel', 'boot', 'systemd',
  'backup', 'lvm', 'raid', 'virtualization', 'containers', 'mail', 'dns', 'dhcp', 'ldap', 'samba', 'nfs', 'printing',
  'x11', 'desktop', 'debian', 'installation', 'upgrades', 'monitoring', 'logs', 'users', 'permissions', 'cron',
  'shell', 'editors', 'web', 'apache', 'proxy', 'ftp', 'vpn', 'ipv6', 'quotas', 'selinux', 'apparmor', 'packaging'];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A date as sites print it, drawn from 2019–2024. */
export function dateText(rnd: () => number): string {
  return `${MONTHS[Math.floor(rnd() * 12)]} ${1 + Math.floor(rnd() * 28)}, ${2019 + Math.floor(rnd() * 6)}`;
}

/** How a site lays out its pages. */
export interface SiteStyle {
  host: string;
  name: string;
  seed: number;
  /** Header menu size in words (approximately). */
  headerWords: number;
  /** Footer size in words (approximately). */
  footerWords: number;
  /** Related links per page, drawn per page among the site's own articles. */
  related: number;
  /** A "most read" box: the same links on every page. */
  popular: number;
  byline: boolean;
  tags: boolean;
  newsletter: boolean;
  share: boolean;
  breadcrumb: boolean;
  /** Layout: div (semantic blocks), table (an older site built with nested tables), or docs (a manual: its whole table of contents on every page). */
  layout: 'div' | 'table' | 'docs';
  /** Original articles of this site. */
  originals: number;
  /** Share of its articles with a print view at /print/. */
  print: number;
  /** Share of its articles also served at a tracking URL (?utm_...). */
  tracking: number;
  authors: string[];
  /** Takes three times its share of syndicated copies. */
  aggregator?: boolean;
  /** false: neither gives nor takes syndicated copies. */
  syndicates?: boolean;
  /** A mirror: copies this share of the named site's originals verbatim. */
  mirrorOf?: string;
  mirrorShare?: number;
  /** Short posts (12–56 words), and the share of them posted again, updated, at a second URL. */
  briefs?: number;
  briefUpdates?: number;
}

export const SITES: SiteStyle[] = [
  { host: 'www.linuxdaily.example.com', name: 'Linux Daily', seed: 11, headerWords: 290, footerWords: 140, related: 8, popular: 5, byline: true, tags: true, newsletter: true, share: true, breadcrumb: false, layout: 'div', originals: 80, print: 0.4, tracking: 0, authors: [] },
  { host: 'sysadmin-notes.example.org', name: 'Sysadmin Notes', seed: 23, headerWords: 160, footerWords: 60, related: 5, popular: 0, byline: true, tags: true, newsletter: false, share: false, breadcrumb: true, layout: 'div', originals: 70, print: 0, tracking: 0.3, authors: [] },
  { host: 'opensource-weekly.example.net', name: 'Open Source Weekly', seed: 37, headerWords: 230, footerWords: 100, related: 6, popular: 6, byline: true, tags: false, newsletter: true, share: true, breadcrumb: true, layout: 'div', originals: 70, print: 0.3, tracking: 0, authors: [] },
  { host: 'tuxmagazine.example.com', name: 'Tux Magazine', seed: 41, headerWords: 250, footerWords: 120, related: 7, popular: 0, byline: true, tags: true, newsletter: false, share: true, breadcrumb: false, layout: 'table', originals: 70, print: 0, tracking: 0, authors: [] },
  { host: 'debian-digest.example.org', name: 'Debian Digest', seed: 53, headerWords: 40, footerWords: 20, related: 3, popular: 0, byline: false, tags: false, newsletter: false, share: false, breadcrumb: false, layout: 'div', originals: 60, print: 0, tracking: 0, authors: [] },
  { host: 'techwire.example.net', name: 'TechWire', seed: 67, headerWords: 200, footerWords: 80, related: 6, popular: 4, byline: true, tags: true, newsletter: true, share: true, breadcrumb: true, layout: 'div', originals: 40, print: 0, tracking: 0, authors: [], aggregator: true },
];
