import { Car, House, Landmark, type LucideIcon, Scale, Stethoscope, UtensilsCrossed } from 'lucide-react';
import type { ScenarioIcon } from './scenarios.ts';

/** The icon of each industry scenario. */
export const SCENARIO_ICONS: Record<ScenarioIcon, LucideIcon> = {
  stethoscope: Stethoscope,
  utensils: UtensilsCrossed,
  home: House,
  landmark: Landmark,
  scale: Scale,
  car: Car,
};
