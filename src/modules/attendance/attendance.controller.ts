import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { AttendanceDetailsQuery, AttendanceDto, AttendanceQuery, CheckInDto, CheckInStatusDto, CheckOutDto, DriverAttendanceDetailsDto, DriverAttendanceQuery } from './attendance.dto';
import { AttendanceService } from './attendance.service';

const TODAY = "Today is the company's local date (its time zone).";
const INVALID = { 409: ['INVALID_TRANSITION'] };

@ApiTags('Attendance (driver)')
@Controller('api/v1/driver')
export class DriverAttendanceController {
  constructor(private readonly attendance: AttendanceService) {}

  @Post('check-in')
  @Access('DR')
  @Endpoint({
    summary: "Check in: starts today's day (checked_in)",
    description:
      `${TODAY} Position required; \`truck_id\` optional (an active truck of the company, else 422). A second check-in the same day is 409 \`INVALID_TRANSITION\` ` +
      '(after a check-out, resume the day instead). A day of an earlier date left open is closed at the end of its date first.',
    type: AttendanceDto,
    status: 201,
    errors: [409, 422],
    codes: INVALID,
  })
  checkIn(@CurrentScope() scope: Scope, @Body() dto: CheckInDto) {
    return this.attendance.checkIn(scope, dto);
  }

  @Post('start-break')
  @Access('DR-IN')
  @Endpoint({ summary: 'Start a break (checked_in → on_break)', description: 'Already on a break: 409 `INVALID_TRANSITION`.', type: AttendanceDto, errors: [409], codes: INVALID })
  startBreak(@CurrentScope() scope: Scope) {
    return this.attendance.startBreak(scope);
  }

  @Post('end-break')
  @Access('DR-IN')
  @Endpoint({ summary: 'End the break (on_break → checked_in)', description: 'Not on a break: 409 `INVALID_TRANSITION`.', type: AttendanceDto, errors: [409], codes: INVALID })
  endBreak(@CurrentScope() scope: Scope) {
    return this.attendance.endBreak(scope);
  }

  @Post('check-out')
  @Access('DR-IN')
  @Endpoint({ summary: 'Check out (→ checked_out); an open break ends now', description: 'Position optional (`lat` and `lng` together).', type: AttendanceDto, errors: [409, 422], codes: INVALID })
  checkOut(@CurrentScope() scope: Scope, @Body() dto: CheckOutDto) {
    return this.attendance.checkOut(scope, dto);
  }

  @Post('resume-attendance')
  @Access('DR')
  @Endpoint({
    summary: "Re-open today's checked-out day (checked_out → checked_in)",
    description: `${TODAY} The time between the check-out and the resume is kept as a pause (kind \`checked_out\`) and is not worked. No day today, or a day not checked out: 409 \`INVALID_TRANSITION\`.`,
    type: AttendanceDto,
    errors: [409],
    codes: INVALID,
  })
  resume(@CurrentScope() scope: Scope) {
    return this.attendance.resume(scope);
  }

  @Get('status/check-in')
  @Access('DR')
  @Endpoint({ summary: "My state: the open day (normally today's), else today's, else not checked in", type: CheckInStatusDto })
  status(@CurrentScope() scope: Scope) {
    return this.attendance.status(scope);
  }

  @Get('attendances/get')
  @Access('DR')
  @Endpoint({ summary: 'My days, newest first (filters from/to on the work date)', type: AttendanceDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: DriverAttendanceQuery) {
    return this.attendance.list(scope, q);
  }
}

@ApiTags('Attendance')
@Controller('api/v1/attendances')
export class CompanyAttendanceController {
  constructor(private readonly attendance: AttendanceService) {}

  @Get()
  @Access('CO')
  @Endpoint({ summary: "Drivers' days, newest first (filters from/to on the work date, driver_id, status; q on the driver's name or e-mail)", type: AttendanceDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: AttendanceQuery) {
    return this.attendance.list(scope, q);
  }

  @Get(':attendanceId')
  @Access('CO')
  @ApiIdParam('attendanceId')
  @Endpoint({ summary: 'One day of a driver, with its breaks and worked minutes', type: AttendanceDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('attendanceId') id: string) {
    return this.attendance.get(scope, id);
  }

  @Get(':driverId/details')
  @Access('CO')
  @ApiIdParam('driverId', 'A driver of the company.')
  @Endpoint({
    summary: "A driver's days over a range (default the current month), each with worked minutes and breaks, and totals",
    description: 'Oldest day first; at most 366 days (422 on `to` beyond, or before `from`).',
    type: DriverAttendanceDetailsDto,
    errors: [404, 422],
  })
  details(@CurrentScope() scope: Scope, @IdParam('driverId') driverId: string, @Query() q: AttendanceDetailsQuery) {
    return this.attendance.details(scope, driverId, q);
  }
}
