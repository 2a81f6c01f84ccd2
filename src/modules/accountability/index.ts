/** What other modules may use of accountability (never its entities). */
export { AccountabilityModule } from './accountability.module';
export { DemeritService } from './demerit.service';
export { ViolationsService } from './violations.service';
export { DemeritPointsDto, DemeritStandingDto, PolicyViolationDto } from './accountability.dto';
export { RESOLUTIONS, VIOLATION_STATUSES, type Resolution, type ViolationStatus } from './accountability.types';
