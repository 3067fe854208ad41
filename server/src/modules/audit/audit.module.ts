import { moduleEntry, type ModuleContext } from '../module.ts';
import { createAuditService } from './audit.service.ts';

/** The audit trail: every module that acts for someone writes its entries here. */
export function auditModule({ db, bus }: ModuleContext) {
  return moduleEntry({ services: { audit: createAuditService({ db, bus }) } });
}
