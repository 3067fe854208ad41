import {
  BarChart3,
  BookOpen,
  Code2,
  FileCode,
  History,
  LayoutDashboard,
  Library,
  Settings,
  Shield,
  SquareTerminal,
  Users,
  UsersRound,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  path: string;
  label: string;
  icon: LucideIcon;
  adminOnly?: boolean;
}

/** The sidebar's navigation (spec section 2); the root path / counts as the dashboard entry. */
export const NAV_ITEMS: NavItem[] = [
  { path: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { path: '/editor', label: 'Script Editor', icon: Code2 },
  { path: '/scripts', label: 'My Scripts', icon: FileCode },
  // Not in the spec's list: the history of the user's runs.
  { path: '/runs', label: 'Runs', icon: History },
  // Not in the spec's list: the live game console.
  { path: '/console', label: 'Console', icon: SquareTerminal },
  // Not in the spec's list: who is playing in the user's games.
  { path: '/players', label: 'Players', icon: Users },
  { path: '/scriptblox', label: 'ScriptBlox', icon: Library },
  { path: '/api-docs', label: 'API Docs', icon: BookOpen },
  // Not in the spec's list: the analytics view the spec's Analytics API feeds.
  { path: '/analytics', label: 'Analytics', icon: BarChart3 },
  // Not in the spec's list: the members of the chosen team, and inviting more.
  { path: '/team', label: 'Team', icon: UsersRound },
  { path: '/settings', label: 'Settings', icon: Settings },
  { path: '/admin', label: 'Admin Panel', icon: Shield, adminOnly: true },
];

export const isActive = (item: NavItem, pathname: string) =>
  pathname === item.path || (item.path === '/dashboard' && pathname === '/');
