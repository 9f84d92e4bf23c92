import { ComingSoon } from '../components/coming-soon.tsx';

/** Routed screens not built yet, shown inside the admin shell (Address Books and Email Marketing are built). */
