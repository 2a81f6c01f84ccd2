import { Body, Controller, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { UpdateAssetDto, UpdateAssetSpecificationDto } from '../catalogue';
import { CompanyWithPlatformDto, UpdateCompanyDto } from '../companies';
import { MemberDto, UpdateCustomerDto } from '../customers';
import { UpdateDriverDto } from '../drivers';
import {
  AdminAssetDto,
  AdminAssetQuery,
  AdminAssetSpecificationDto,
  AdminAssetSpecificationQuery,
  AdminCompanyAssetQuery,
  AdminCompanyAssetSpecificationQuery,
  AdminCompanyCustomerQuery,
  AdminCompanyDetailDto,
  AdminCompanyDriverQuery,
  AdminCompanyOrderQuery,
  AdminCompanyQuery,
  AdminCreateAssetDto,
  AdminCreateAssetSpecificationDto,
  AdminCreateCompanyDto,
  AdminCreateMemberDto,
  AdminCustomerDto,
  AdminCustomerQuery,
  AdminDriverDto,
  AdminDriverQuery,
  AdminOrderDto,
  AdminOrderFullDto,
  AdminOrderQuery,
  AdminWasteTypeDto,
  AdminWasteTypeQuery,
  UpdatePlatformSettingsDto,
} from './platform.dto';
import { PlatformService } from './platform.service';

const AUDITED = 'Recorded in the audit log (before and after) in the same transaction.';
const LISTS = 'Newest first by default; `from`/`to` filter on the creation date (UTC, inclusive).';
const NAMED = 'Through the same service and checks as the company\'s own route, for the company `company_id` names (422 without it, 404 for an unknown company).';
const STATUS = 'Repeating the current state is 409 `INVALID_TRANSITION`. Its users\' role routes answer 403 `COMPANY_INACTIVE` from the next request while it is inactive; `/auth/me` shows the status.';

@ApiTags('Administration')
@Controller('api/v1/admin/companies')
export class AdminCompaniesController {
  constructor(private readonly platform: PlatformService) {}

  @Get()
  @Access('AD')
  @Endpoint({ summary: 'Every company with its platform settings (filters: status, q on name and e-mail, from/to; sort created_at, name)', description: LISTS, type: CompanyWithPlatformDto, list: true, errors: [422] })
  list(@Query() q: AdminCompanyQuery) {
    return this.platform.listCompanies(q);
  }

  @Post()
  @Access('AD')
  @Endpoint({
    summary: 'Create a company with its owner',
    description: `The company (the fields of /company/create) and \`owner\`, a new company user (e-mail unique: 409 \`EMAIL_TAKEN\`); with \`owner.password\` the owner can log in at once, else a code to set one is e-mailed. ${AUDITED}`,
    type: CompanyWithPlatformDto,
    status: 201,
    errors: [409, 422],
    codes: { 409: ['EMAIL_TAKEN'] },
  })
  create(@CurrentActor() admin: Actor, @Body() dto: AdminCreateCompanyDto) {
    return this.platform.createCompany(admin, dto);
  }

  @Get(':companyId')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({ summary: 'A company with its platform settings and its latest audit entries', type: AdminCompanyDetailDto, errors: [404] })
  show(@IdParam('companyId') id: string) {
    return this.platform.showCompany(id);
  }

  @Put(':companyId')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({ summary: 'Update a company (the fields of /company/update; fields given are changed)', description: AUDITED, type: CompanyWithPlatformDto, errors: [404, 422] })
  update(@CurrentActor() admin: Actor, @IdParam('companyId') id: string, @Body() dto: UpdateCompanyDto) {
    return this.platform.updateCompany(admin, id, dto);
  }

  @Post(':companyId/activate')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({ summary: 'Activate a company', description: `${STATUS} ${AUDITED}`, type: CompanyWithPlatformDto, errors: [404, 409], codes: { 409: ['INVALID_TRANSITION'] } })
  activate(@CurrentActor() admin: Actor, @IdParam('companyId') id: string) {
    return this.platform.setCompanyStatus(admin, id, 'active');
  }

  @Post(':companyId/deactivate')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({ summary: 'Deactivate a company', description: `${STATUS} ${AUDITED}`, type: CompanyWithPlatformDto, errors: [404, 409], codes: { 409: ['INVALID_TRANSITION'] } })
  deactivate(@CurrentActor() admin: Actor, @IdParam('companyId') id: string) {
    return this.platform.setCompanyStatus(admin, id, 'inactive');
  }

  @Patch(':companyId/platform')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({
    summary: "Change a company's platform settings: card fee (basis points), plan override, feature flags",
    description: `Fields given are changed. \`platform_fee_bps\` is the card percentage payments charges the company (GET /psp/onboarding/fee_details shows it); \`plan_override\` a plan whose limits apply whatever the subscription. ${AUDITED}`,
    type: CompanyWithPlatformDto,
    errors: [404, 422],
  })
  platformSettings(@CurrentActor() admin: Actor, @IdParam('companyId') id: string, @Body() dto: UpdatePlatformSettingsDto) {
    return this.platform.updatePlatform(admin, id, dto);
  }
}

@ApiTags('Administration')
@Controller('api/v1/admin')
export class AdminRecordsController {
  constructor(private readonly platform: PlatformService) {}

  // ------------------------------------------------------------ customers

  @Get('customers')
  @Access('AD')
  @Endpoint({ summary: 'Customers of every company (filters: company_id, status, q on name, e-mail, phone, tax_exempt, pricing_profile_id, from/to)', description: LISTS, type: AdminCustomerDto, list: true, errors: [422] })
  customers(@Query() q: AdminCustomerQuery) {
    return this.platform.listCustomers(q);
  }

  @Post('customers')
  @Access('AD')
  @Endpoint({ summary: 'Create a customer of a company', description: `The body of /customer/create and \`company_id\`. ${NAMED} ${AUDITED}`, type: MemberDto, status: 201, errors: [404, 409, 422], codes: { 409: ['EMAIL_TAKEN'] } })
  createCustomer(@CurrentActor() admin: Actor, @Body() dto: AdminCreateMemberDto) {
    return this.platform.createMember(admin, 'customer', dto);
  }

  @Get('customers/:companyId/get')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({ summary: "A company's customers (the filters of GET /admin/customers)", description: LISTS, type: AdminCustomerDto, list: true, errors: [404, 422] })
  companyCustomers(@IdParam('companyId') companyId: string, @Query() q: AdminCompanyCustomerQuery) {
    return this.platform.listCustomers(q, Scope.company(companyId));
  }

  @Get('customers/:customerId')
  @Access('AD')
  @ApiIdParam('customerId')
  @Endpoint({ summary: 'A customer of any company', type: AdminCustomerDto, errors: [404] })
  customer(@IdParam('customerId') id: string) {
    return this.platform.showCustomer(id);
  }

  @Put('customers/:customerId')
  @Access('AD')
  @ApiIdParam('customerId')
  @Endpoint({ summary: 'Update a customer (the body of PUT /customer/{customerId}/update)', description: AUDITED, type: AdminCustomerDto, errors: [404, 409, 422], codes: { 409: ['EMAIL_TAKEN'] } })
  updateCustomer(@CurrentActor() admin: Actor, @IdParam('customerId') id: string, @Body() dto: UpdateCustomerDto) {
    return this.platform.updateCustomer(admin, id, dto);
  }

  // ------------------------------------------------------------ drivers

  @Get('drivers')
  @Access('AD')
  @Endpoint({ summary: 'Drivers of every company (filters: company_id, status, q on name, e-mail, phone, from/to)', description: LISTS, type: AdminDriverDto, list: true, errors: [422] })
  drivers(@Query() q: AdminDriverQuery) {
    return this.platform.listDrivers(q);
  }

  @Post('drivers')
  @Access('AD')
  @Endpoint({
    summary: 'Create a driver of a company',
    description: `The body of /driver/create and \`company_id\`. ${NAMED} The company's plan limits its drivers (403 \`PLAN_LIMIT\`). ${AUDITED}`,
    type: MemberDto,
    status: 201,
    errors: [403, 404, 409, 422],
    codes: { 403: ['PLAN_LIMIT'], 409: ['EMAIL_TAKEN'] },
  })
  createDriver(@CurrentActor() admin: Actor, @Body() dto: AdminCreateMemberDto) {
    return this.platform.createMember(admin, 'driver', dto);
  }

  @Get('drivers/:companyId/get')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({ summary: "A company's drivers (the filters of GET /admin/drivers)", description: LISTS, type: AdminDriverDto, list: true, errors: [404, 422] })
  companyDrivers(@IdParam('companyId') companyId: string, @Query() q: AdminCompanyDriverQuery) {
    return this.platform.listDrivers(q, Scope.company(companyId));
  }

  @Get('drivers/:driverId')
  @Access('AD')
  @ApiIdParam('driverId')
  @Endpoint({ summary: 'A driver of any company', type: AdminDriverDto, errors: [404] })
  driver(@IdParam('driverId') id: string) {
    return this.platform.showDriver(id);
  }

  @Put('drivers/:driverId')
  @Access('AD')
  @ApiIdParam('driverId')
  @Endpoint({ summary: 'Update a driver (the body of PUT /driver/{driverId}/update)', description: AUDITED, type: AdminDriverDto, errors: [404, 409, 422], codes: { 409: ['EMAIL_TAKEN'] } })
  updateDriver(@CurrentActor() admin: Actor, @IdParam('driverId') id: string, @Body() dto: UpdateDriverDto) {
    return this.platform.updateDriver(admin, id, dto);
  }

  // ------------------------------------------------------------ asset specifications

  @Get('asset-specifications')
  @Access('AD')
  @Endpoint({ summary: 'Asset specifications of every company (filters: company_id, status active|inactive, active, asset_category_id, asset_style_id, q on name, from/to)', description: LISTS, type: AdminAssetSpecificationDto, list: true, errors: [422] })
  specifications(@Query() q: AdminAssetSpecificationQuery) {
    return this.platform.listSpecifications(q);
  }

  @Post('asset-specifications')
  @Access('AD')
  @Endpoint({ summary: 'Create an asset specification of a company', description: `The body of POST /asset-specifications and \`company_id\`. ${NAMED} ${AUDITED}`, type: AdminAssetSpecificationDto, status: 201, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  createSpecification(@CurrentActor() admin: Actor, @Body() dto: AdminCreateAssetSpecificationDto) {
    return this.platform.createSpecification(admin, dto);
  }

  @Get('asset-specifications/:companyId/get')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({ summary: "A company's asset specifications (the filters of GET /admin/asset-specifications)", description: LISTS, type: AdminAssetSpecificationDto, list: true, errors: [404, 422] })
  companySpecifications(@IdParam('companyId') companyId: string, @Query() q: AdminCompanyAssetSpecificationQuery) {
    return this.platform.listSpecifications(q, Scope.company(companyId));
  }

  @Get('asset-specifications/:assetSpecificationId')
  @Access('AD')
  @ApiIdParam('assetSpecificationId')
  @Endpoint({ summary: 'An asset specification of any company', type: AdminAssetSpecificationDto, errors: [404] })
  specification(@IdParam('assetSpecificationId') id: string) {
    return this.platform.showSpecification(id);
  }

  @Put('asset-specifications/:assetSpecificationId')
  @Access('AD')
  @ApiIdParam('assetSpecificationId')
  @Endpoint({ summary: 'Update an asset specification (the body of PUT /asset-specifications/{assetSpecification})', description: AUDITED, type: AdminAssetSpecificationDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  updateSpecification(@CurrentActor() admin: Actor, @IdParam('assetSpecificationId') id: string, @Body() dto: UpdateAssetSpecificationDto) {
    return this.platform.updateSpecification(admin, id, dto);
  }

  // ------------------------------------------------------------ assets

  @Get('assets')
  @Access('AD')
  @Endpoint({ summary: 'Assets of every company (filters: company_id, status, condition, asset_specification_id, home_lot_id, q on code and serial, from/to)', description: LISTS, type: AdminAssetDto, list: true, errors: [422] })
  assetList(@Query() q: AdminAssetQuery) {
    return this.platform.listAssets(q);
  }

  @Post('assets')
  @Access('AD')
  @Endpoint({
    summary: 'Create an asset of a company',
    description: `The body of POST /assets and \`company_id\`. ${NAMED} The company's plan limits its assets (403 \`PLAN_LIMIT\`). ${AUDITED}`,
    type: AdminAssetDto,
    status: 201,
    errors: [403, 404, 409, 422],
    codes: { 403: ['PLAN_LIMIT'], 409: ['DUPLICATE_CODE', 'DUPLICATE_SERIAL'] },
  })
  createAsset(@CurrentActor() admin: Actor, @Body() dto: AdminCreateAssetDto) {
    return this.platform.createAsset(admin, dto);
  }

  @Get('assets/:companyId/get')
  @Access('AD')
  @ApiIdParam('companyId')
  @Endpoint({ summary: "A company's assets (the filters of GET /admin/assets)", description: LISTS, type: AdminAssetDto, list: true, errors: [404, 422] })
  companyAssets(@IdParam('companyId') companyId: string, @Query() q: AdminCompanyAssetQuery) {
    return this.platform.listAssets(q, Scope.company(companyId));
  }

  @Get('assets/:asset')
  @Access('AD')
  @ApiIdParam('asset')
  @Endpoint({ summary: 'An asset of any company', type: AdminAssetDto, errors: [404] })
  asset(@IdParam('asset') id: string) {
    return this.platform.showAsset(id);
  }

  @Put('assets/:asset')
  @Access('AD')
  @ApiIdParam('asset')
  @Endpoint({
    summary: 'Update an asset (the body of PUT /assets/{asset})',
    description: AUDITED,
    type: AdminAssetDto,
    errors: [404, 409, 422],
    codes: { 409: ['DUPLICATE_CODE', 'DUPLICATE_SERIAL', 'INVALID_TRANSITION'] },
  })
  updateAsset(@CurrentActor() admin: Actor, @IdParam('asset') id: string, @Body() dto: UpdateAssetDto) {
    return this.platform.updateAsset(admin, id, dto);
  }

  // ------------------------------------------------------------ waste types and orders (read only)

  @Get('waste-types')
  @Access('AD')
  @Endpoint({ summary: 'Waste types of every company (filters: company_id, status active|inactive, active, hazardous, q on name and code, from/to)', description: LISTS, type: AdminWasteTypeDto, list: true, errors: [422] })
  wasteTypes(@Query() q: AdminWasteTypeQuery) {
    return this.platform.listWasteTypes(q);
  }

  @Get('orders')
  @Access('AD')
  @Endpoint({
    summary: 'Orders of every company (filters: company_id, status, payment_status, customer_id, asset_specification_id, delivery date, q, from/to on creation)',
    description: `${LISTS} \`overdue\` in each company's time zone.`,
    type: AdminOrderDto,
    list: true,
    errors: [422],
  })
  orders(@Query() q: AdminOrderQuery) {
    return this.platform.listOrders(q);
  }

  @Get('orders/:company/get')
  @Access('AD')
  @ApiIdParam('company')
  @Endpoint({ summary: "A company's orders (the filters of GET /admin/orders)", description: LISTS, type: AdminOrderDto, list: true, errors: [404, 422] })
  companyOrders(@IdParam('company') companyId: string, @Query() q: AdminCompanyOrderQuery) {
    return this.platform.listOrders(q, Scope.company(companyId));
  }

  @Get('orders/:order')
  @Access('AD')
  @ApiIdParam('order')
  @Endpoint({ summary: 'An order of any company: every line (voided too), status history, jobs, change-request counts', type: AdminOrderFullDto, errors: [404] })
  order(@IdParam('order') id: string) {
    return this.platform.showOrder(id);
  }
}
